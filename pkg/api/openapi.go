package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/voyage/voyage/pkg/fault"
)

// ErrorCodes documents every stable API code (API.md) in the OpenAPI document.
var ErrorCodes = []struct {
	Code    int
	Status  int
	Meaning string
}{
	{fault.CodeOK, 200, "success"},
	{fault.CodeValidation, 400, "validation failed or malformed body (data.fields: field → message)"},
	{fault.CodeBodyTooLarge, 413, "request body over the size limit"},
	{fault.CodeNotFound, 404, "not found (also unknown API path and, with 405, a known path with another method)"},
	{fault.CodeConflict, 409, "state conflict (wrong status for the action, idempotency key reused with another body)"},
	{fault.CodeBadCredentials, 401, "invalid username or password"},
	{fault.CodeNoAccess, 403, "no access (role, permission or service disabled)"},
	{fault.CodeSessionExpired, 401, "session expired"},
	{fault.CodeSessionInvalid, 401, "session invalid or revoked"},
	{fault.CodeRateLimited, 429, "too many attempts; retry later"},
	{fault.CodeLoggedOutByOther, 401, "logged out by a newer login elsewhere"},
	{fault.CodeInsufficientFund, 422, "insufficient balance (balance + credit)"},
	{fault.CodePaymentFailed, 422, "payment failed"},
	{fault.CodeNoFlight, 422, "no suitable flight found"},
	{fault.CodeQuoteExpired, 409, "quote expired"},
	{fault.CodeSearchTimeout, 504, "search timed out"},
	{fault.CodeInternal, 500, "internal error"},
}

var pathParam = regexp.MustCompile(`\{([A-Za-z0-9_]+)(\.\.\.)?\}`)

// DocumentVersion is the version of the API the document describes (the v2
// of its paths). It is not the build: the document is public, and the
// build's commit would tell an anonymous caller which fixes it lacks.
const DocumentVersion = "2"

// OpenAPI builds the OpenAPI 3.1 document of every registered route.
func (rt *Router) OpenAPI() map[string]any {
	ref := &jsonschema.Reflector{Anonymous: true, AllowAdditionalProperties: true}
	schemas := map[string]any{}
	schemaOf := func(v any) any {
		if v == nil {
			return map[string]any{"type": "null"}
		}
		s := ref.Reflect(v)
		raw, err := json.Marshal(s)
		if err != nil {
			panic(fmt.Sprintf("api: schema of %T: %v", v, err))
		}
		raw = []byte(strings.ReplaceAll(string(raw), "#/$defs/", "#/components/schemas/"))
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			panic(err)
		}
		if defs, ok := m["$defs"].(map[string]any); ok {
			for name, d := range defs {
				schemas[name] = d
			}
		}
		delete(m, "$defs")
		delete(m, "$schema")
		delete(m, "$id")
		return m
	}

	var codes strings.Builder
	codes.WriteString("Every response is the envelope {code, data, message}; message is translated to the request language (lang cookie, else Accept-Language, else zh-cn).\n\n| code | HTTP | meaning |\n|---|---|---|\n")
	codeEnum := []int{}
	for _, c := range ErrorCodes {
		fmt.Fprintf(&codes, "| %d | %d | %s |\n", c.Code, c.Status, c.Meaning)
		codeEnum = append(codeEnum, c.Code)
	}
	schemas["ErrorEnvelope"] = map[string]any{
		"type":     "object",
		"required": []string{"code", "data", "message"},
		"properties": map[string]any{
			"code":    map[string]any{"type": "integer", "enum": codeEnum},
			"data":    map[string]any{"description": "null, or {fields: {name: message}} for 100001"},
			"message": map[string]any{"type": "string"},
		},
	}

	paths := map[string]any{}
	for _, r := range rt.Routes() {
		p := pathParam.ReplaceAllString(r.Path, "{$1}")
		item, _ := paths[p].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[p] = item
		}
		status := r.Op.Status
		if status == 0 {
			status = http.StatusOK
		}
		op := map[string]any{
			"operationId": r.Op.ID,
			"summary":     r.Op.Summary,
			"tags":        []string{r.Op.Tag},
			"responses": map[string]any{
				fmt.Sprint(status): map[string]any{
					"description": "success",
					"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
						"type":     "object",
						"required": []string{"code", "data", "message"},
						"properties": map[string]any{
							"code":    map[string]any{"const": 0},
							"data":    schemaOf(r.Op.Response),
							"message": map[string]any{"type": "string"},
						},
					}}},
				},
				"default": map[string]any{
					"description": errorsDescription(r.Op.Errors),
					"content":     map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/ErrorEnvelope"}}},
				},
			},
		}
		if r.Op.Public {
			op["security"] = []any{}
		}
		params := []any{}
		for _, m := range pathParam.FindAllStringSubmatch(r.Path, -1) {
			params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
		for _, q := range r.Op.Query {
			var s any = map[string]any{"type": q.Type}
			if q.Array {
				s = map[string]any{"type": "array", "items": map[string]any{"type": q.Type}}
			}
			params = append(params, map[string]any{"name": q.Name, "in": "query", "required": q.Required, "description": q.Description, "schema": s})
		}
		if len(params) > 0 {
			op["parameters"] = params
		}
		if r.Op.Request != nil {
			op["requestBody"] = map[string]any{
				"required": true,
				"content":  map[string]any{"application/json": map[string]any{"schema": schemaOf(r.Op.Request)}},
			}
		}
		item[strings.ToLower(r.Method)] = op
	}

	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":       "Voyage agency API",
			"version":     DocumentVersion,
			"description": codes.String(),
		},
		"servers": []any{map[string]any{"url": "/"}},
		"paths":   paths,
		"components": map[string]any{
			"schemas": schemas,
			"securitySchemes": map[string]any{
				"bearer": map[string]any{"type": "http", "scheme": "bearer", "description": "session token from POST /base/v2/login"},
				"apiKey": map[string]any{"type": "apiKey", "in": "header", "name": "X-Api-Key", "description": "agency integration key"},
			},
		},
		"security": []any{map[string]any{"bearer": []string{}}, map[string]any{"apiKey": []string{}}},
	}
}

func errorsDescription(extra []int) string {
	codes := []string{fmt.Sprint(fault.CodeValidation), fmt.Sprint(fault.CodeInternal)}
	for _, c := range extra {
		codes = append(codes, fmt.Sprint(c))
	}
	return "error envelope; codes: " + strings.Join(codes, ", ")
}
