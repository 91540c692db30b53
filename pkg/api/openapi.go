package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/idempotency"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/train"
)

// ErrorCodes documents every stable API code (API.md) in the OpenAPI document
// with the HTTP statuses it is answered with.
var ErrorCodes = []struct {
	Code     int
	Statuses []int
	Meaning  string
}{
	{fault.CodeOK, []int{200}, "success"},
	{fault.CodeValidation, []int{400, 422}, "validation failed or malformed body (data.fields: field → message)"},
	{fault.CodeBodyTooLarge, []int{413}, "request body over the size limit"},
	{fault.CodeNotFound, []int{404, 405}, "not found (also unknown API path and, with 405, a known path with another method)"},
	{fault.CodeConflict, []int{409, 422}, "state conflict (wrong status for the action, idempotency key reused with another body)"},
	{fault.CodeBadCredentials, []int{401}, "invalid username or password"},
	{fault.CodeNoAccess, []int{403}, "no access (role, permission or service disabled)"},
	{fault.CodeSessionExpired, []int{401}, "session expired"},
	{fault.CodeSessionInvalid, []int{401}, "session invalid or revoked"},
	{fault.CodeRateLimited, []int{429}, "too many requests; retry after the Retry-After seconds"},
	{fault.CodeLoggedOutByOther, []int{401}, "logged out by a newer login elsewhere"},
	{fault.CodeInsufficientFund, []int{422}, "insufficient balance (balance + credit)"},
	{fault.CodePaymentFailed, []int{402, 504}, "payment failed (504: the gateway did not answer in time)"},
	{fault.CodeNoFlight, []int{404, 422}, "no suitable flight found"},
	{fault.CodeQuoteExpired, []int{409}, "quote expired"},
	{fault.CodeSearchTimeout, []int{502, 503, 504}, "the supplier did not answer in time (search, verification or booking)"},
	{fault.CodeSearchBusy, []int{503}, "too many searches running; retry after the Retry-After seconds"},
	{fault.CodeInternal, []int{500}, "internal error"},
}

var pathParam = regexp.MustCompile(`\{([A-Za-z0-9_]+)(\.\.\.)?\}`)

// DocumentVersion is the version of the API the document describes (the v2
// of its paths). It is not the build: the document is public, and the
// build's commit would tell an anonymous caller which fixes it lacks.
const DocumentVersion = "2"

// inputMark prefixes the references of request-side schemas until their
// final names are known (see OpenAPI).
const inputMark = "__input__"

// schemaName is the component name of a Go type: the bare name for this
// package's types, else the package name in front (flight.Page is OrderPage,
// shopping.Page ShoppingPage) unless the type's name already starts with it.
func schemaName(t reflect.Type) string {
	if n, ok := movedSchemas[t.PkgPath()+"."+t.Name()]; ok {
		return n
	}
	name := t.Name()
	pkg := path.Base(t.PkgPath())
	if arg, ok := strings.CutPrefix(name, "page["); ok && pkg == "api" {
		if n, ok := pageSchemas[path.Base(strings.TrimSuffix(arg, "]"))]; ok {
			return n
		}
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		// A shared generic type (booking.Page[flight.View]) is named for
		// the line of its type argument, as the line's own type was before
		// it moved: OrderPage, TrainPage, GroupPage.
		if arg := name[i+1 : len(name)-1]; pkg == "booking" && strings.Contains(arg, "/") {
			pkg = path.Base(arg[:strings.LastIndexByte(arg, '.')])
		}
		name = name[:i]
	}
	if pkg == "api" || pkg == "." || pkg == "" {
		return name
	}
	if p, ok := renamedPackages[pkg]; ok {
		pkg = p
	}
	p := strings.ToUpper(pkg[:1]) + pkg[1:]
	if strings.HasPrefix(name, p) {
		return name
	}
	return p + name
}

// movedSchemas keeps the published name of a schema whose Go type moved
// to another package: integrators' generated clients name their types
// after it (OrderPassengerInput), and a move inside the server is no reason
// to break their code.
var movedSchemas = map[string]string{
	"github.com/voyage/voyage/pkg/booking.Passenger": "OrderPassenger",
	"github.com/voyage/voyage/pkg/booking.Contact":   "OrderContact",
	"github.com/voyage/voyage/pkg/booking.Event":     "OrderEvent",
	// A train order's train is the rail seam's run.
	"github.com/voyage/voyage/pkg/supplier/rail.Run": "Train",
	// The API's and the terminal's shared views of the wallet and users.
	"github.com/voyage/voyage/pkg/ledger.WalletEntry":      "WalletEntry",
	"github.com/voyage/voyage/pkg/ledger.StatementSummary": "StatementSummary",
	"github.com/voyage/voyage/pkg/ledger.StatementDetail":  "StatementDetail",
	"github.com/voyage/voyage/pkg/auth.ManagedUser":        "ManagedUser",
	"github.com/voyage/voyage/pkg/auth.CreateUserRequest":  "CreateUserRequest",
	// A group's counts lead with "all", which is no group status.
	"github.com/voyage/voyage/pkg/booking.StatusCount[string]": "GroupStatusCount",
}

// pageSchemas keeps the published names of the pages of one kind of item
// (page[T], by T) from when each was a type of its own.
var pageSchemas = map[string]string{
	"ledger.StatementSummary": "StatementPage",
	"ledger.Transaction":      "TransactionPage",
	"ledger.WalletEntry":      "WalletEntryPage",
	"auth.ManagedUser":        "UserPage",
	"audit.Entry":             "UserLogPage",
	"agency.Summary":          "AgencyPage",
	"webhook.Delivery":        "WebhookDeliveryPage",
}

// formerSchemas keeps the published name of a schema whose Go type was
// merged into another (the lines' own money types into money.Money, the
// group's timeline event into booking.Event): the document still defines
// the old name, as a reference to the new one, so integrators' generated
// types (ShoppingMoney, TrainMoney, GroupEvent) keep compiling.
var formerSchemas = map[string]string{
	"ShoppingMoney": "Money",
	"TrainMoney":    "Money",
	// The flight and group lines' timeline events are booking.Event.
	"GroupEvent": "OrderEvent",
}

// renamedPackages keeps the published schema names of a package that was
// renamed (pkg/order became pkg/flight): OrderView stays OrderView.
var renamedPackages = map[string]string{"flight": "order"}

// enumMapper gives the named status and action types their enums.
func enumMapper(t reflect.Type) *jsonschema.Schema {
	strs := func(vals any) *jsonschema.Schema {
		v := reflect.ValueOf(vals)
		s := &jsonschema.Schema{Type: "string"}
		for i := 0; i < v.Len(); i++ {
			s.Enum = append(s.Enum, v.Index(i).String())
		}
		return s
	}
	switch t {
	case reflect.TypeOf(flight.Status("")):
		return strs(flight.Statuses)
	case reflect.TypeOf(train.Status("")):
		return strs(train.Statuses)
	case reflect.TypeOf(group.Status("")):
		return strs(group.Statuses)
	}
	return nil
}

// schemaSet reflects Go types into components, remembering the Go type of
// every component so nullable fields can be marked.
type schemaSet struct {
	ref     *jsonschema.Reflector
	schemas map[string]map[string]any
	types   map[string]reflect.Type
	prefix  string
}

func newSchemaSet(input bool, d *describer) *schemaSet {
	s := &schemaSet{schemas: map[string]map[string]any{}, types: map[string]reflect.Type{}}
	if input {
		s.prefix = inputMark
	}
	s.ref = &jsonschema.Reflector{
		Anonymous: true, AllowAdditionalProperties: true,
		// A request field is required only when tagged so: the decoder
		// leaves a missing one at its zero value and the service says what
		// it needs. Every field of a response without omitempty is sent.
		RequiredFromJSONSchemaTags: input,
		Mapper:                     enumMapper,
		LookupComment:              d.lookup,
		Namer: func(t reflect.Type) string {
			n := schemaName(t)
			s.types[n] = t
			return n
		},
	}
	return s
}

// of is the schema of v's type; its named parts go to the components.
func (s *schemaSet) of(v any) map[string]any {
	if v == nil {
		return map[string]any{"type": "null"}
	}
	r := s.ref.Reflect(v)
	raw, err := json.Marshal(r)
	if err != nil {
		panic(fmt.Sprintf("api: schema of %T: %v", v, err))
	}
	raw = []byte(strings.ReplaceAll(string(raw), "#/$defs/", "#/components/schemas/"+s.prefix))
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		panic(err)
	}
	if defs, ok := m["$defs"].(map[string]any); ok {
		for name, d := range defs {
			ds := d.(map[string]any)
			if t, ok := s.types[name]; ok {
				markNullable(ds, t, s.prefix == inputMark)
			}
			if s.prefix == inputMark {
				closeSets(ds)
			}
			s.schemas[name] = ds
		}
	}
	if s.prefix == inputMark {
		closeSets(m)
	}
	delete(m, "$defs")
	delete(m, "$schema")
	delete(m, "$id")
	if t := reflect.TypeOf(v); t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		m = nullable(m)
	}
	return m
}

// pathNouns names what a path segment's {id} identifies.
var pathNouns = map[string]string{
	"agencies": "agency", "balance": "sub-agency", "jobs": "job", "member-cards": "member card",
	"often-used-passengers": "saved passenger", "sessions": "session", "solutions": "solution",
	"statements": "statement", "users": "user",
}

// pathParamDescription describes the path parameter name of path by the
// segment before it (orders/{id} is an order of the path's line).
func pathParamDescription(path, name string) string {
	before, _, _ := strings.Cut(path, "/{"+name)
	segs := strings.Split(before, "/")
	prev := segs[len(segs)-1]
	switch name {
	case "key":
		if prev == "apikeys" {
			return "The API key's prefix, as the key list shows it."
		}
		return "The setting's name."
	case "currency":
		return "The currency's ISO 4217 code, e.g. USD."
	case "deliveryId":
		return "The delivery's id (its X-Voyage-Delivery header)."
	case "kind":
		return "Which document to download."
	case "proof":
		return "The file's id, from the request's proofs."
	case "user":
		return "The user's id."
	case "agency":
		return "The sub-agency's id."
	}
	if prev == "orders" {
		line := "flight"
		switch {
		case strings.Contains(path, "/group/"):
			line = "group"
		case strings.Contains(path, "/train/"):
			line = "train"
		}
		return "The " + line + " order's id, as its list or booking answers it."
	}
	if strings.HasPrefix(prev, "{") {
		return "The statement's id."
	}
	if n, ok := pathNouns[prev]; ok {
		return "The " + n + "'s id."
	}
	return "The id of what the path names."
}

// described is schema s with a description, unless it has one.
func described(s map[string]any, d string) map[string]any {
	if _, ok := s["description"]; !ok {
		s["description"] = d
	}
	return s
}

// markNullable lets the properties that encoding/json writes as null (a nil
// pointer, slice or map without omitempty) be null.
func markNullable(s map[string]any, t reflect.Type, input bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		return
	}
	for _, f := range jsonFields(t) {
		if strings.Contains(f.Opts, "omitempty") || strings.Contains(f.Opts, "omitzero") {
			continue
		}
		// A required property of a request is refused as null
		// (missingRequired): only answers carry a nil list as null.
		if input && required(f.StructField) {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			if f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Uint8 {
				continue
			}
			if f.Type == reflect.TypeOf(json.RawMessage{}) {
				continue
			}
			if p, ok := props[f.Name].(map[string]any); ok {
				props[f.Name] = nullable(p)
			}
		}
	}
}

// closedSets are request properties whose values are a closed set kept in
// the package that owns it, by property name: the request schemas give the
// set as an enum wherever the property stands (a struct tag would copy the
// list, and drift from it). A property whose own tag gives an enum keeps
// it (a train passenger's documentType is the railway's set).
var closedSets = map[string][]string{
	"channel":         payment.Channels,
	"paymentChannels": payment.Channels, // balance is accepted and changes nothing: the wallet is always allowed
	"gender":          profile.Genders,
	"documentType":    profile.DocumentTypes,
	"roles":           auth.Roles,
	"role":            auth.Roles,
	"dateFormat":      profile.DateFormats,
}

// closeSets gives the closedSets' properties of a request schema (and of
// the objects and lists inside it) their enums.
func closeSets(s map[string]any) {
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		ps, ok := p.(map[string]any)
		if !ok {
			continue
		}
		if set, ok := closedSets[name]; ok {
			target := ps
			if items, isList := ps["items"].(map[string]any); isList {
				target = items
			}
			if _, has := target["enum"]; !has && target["$ref"] == nil && isString(target["type"]) {
				target["enum"] = set
			}
		}
		closeSets(ps)
		if items, ok := ps["items"].(map[string]any); ok {
			closeSets(items)
		}
	}
}

// isString: a schema type of string, or of string or null.
func isString(t any) bool {
	switch t := t.(type) {
	case string:
		return t == "string"
	case []any:
		return slices.Contains(t, any("string"))
	}
	return false
}

// referencedFrom answers whether v (a part of the document) refers to a
// schema by its $ref.
func referencedFrom(v any) func(ref string) bool {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("api: document paths: %v", err))
	}
	return func(ref string) bool { return bytes.Contains(raw, []byte(`"`+ref+`"`)) }
}

// webhookData is the schema of a webhook's data: its component when a path
// also answers it, else written out in place. Generators prune the
// components only webhooks use (oapi-codegen with its default options once
// failed on "undefined: GroupReminderEvent").
func webhookData(out *schemaSet, inPaths func(ref string) bool, v any) map[string]any {
	s := out.of(v)
	ref, _ := s["$ref"].(string)
	name, ok := strings.CutPrefix(ref, "#/components/schemas/")
	if !ok || inPaths(ref) {
		return s
	}
	inline, ok := out.schemas[name]
	if !ok {
		return s
	}
	delete(out.schemas, name)
	return inline
}

// nullable is s that also admits null.
func nullable(s map[string]any) map[string]any {
	switch t := s["type"].(type) {
	case string:
		if t == "null" {
			return s
		}
		s["type"] = []any{t, "null"}
		return s
	case []any:
		if !slices.Contains(t, any("null")) {
			s["type"] = append(t, "null")
		}
		return s
	}
	if _, ok := s["$ref"]; ok {
		out := map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
		if d, ok := s["description"]; ok {
			// The property's description describes the property, null or not.
			out["description"] = d
			delete(s, "description")
		}
		return out
	}
	if len(s) == 0 {
		return s
	}
	if alts, ok := s["anyOf"].([]any); ok {
		s["anyOf"] = append(alts, map[string]any{"type": "null"})
		return s
	}
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}

// Idempotency says how a route treats the Idempotency-Key header.
type Idempotency int

// Idempotency-Key handling of a route.
const (
	IdempotencyNone Idempotency = iota
	// IdempotencyOptional routes replay the first answer when a key is sent.
	IdempotencyOptional
	// IdempotencyRequired routes refuse a request without a key.
	IdempotencyRequired
)

// statusNames are the descriptions of the documented error statuses.
var httpStatusText = map[int]string{
	400: "Bad request: invalid input",
	401: "Not logged in: no, expired or revoked credentials",
	402: "Payment failed",
	403: "No access: role, permission or service disabled",
	404: "Not found",
	405: "Method not allowed",
	409: "Conflict with the current state",
	413: "Request body too large",
	422: "A business rule refused the request",
	429: "Too many requests",
	500: "Internal error",
	502: "The supplier failed to answer",
	503: "Busy: retry after the Retry-After seconds",
	504: "The supplier did not answer in time",
}

// errorStatuses maps the codes an operation answers to their statuses.
func (r Route) errorCodes() map[int][]int {
	codes := map[int]bool{fault.CodeValidation: true, fault.CodeNotFound: true, fault.CodeRateLimited: true, fault.CodeInternal: true}
	if !r.Op.Public {
		codes[fault.CodeSessionExpired], codes[fault.CodeSessionInvalid], codes[fault.CodeLoggedOutByOther] = true, true, true
	}
	// A state-changing request from another site is refused with 403 too.
	if r.Op.Role != "" || r.Op.Allow != nil || r.Op.UserOnly || r.Method != http.MethodGet {
		codes[fault.CodeNoAccess] = true
	}
	if r.Op.Request != nil || len(r.Op.RawBody) > 0 {
		codes[fault.CodeBodyTooLarge] = true
	}
	if r.Op.Idempotency != IdempotencyNone {
		codes[fault.CodeConflict] = true
	}
	for _, c := range r.Op.Errors {
		codes[c] = true
	}
	out := map[int][]int{}
	for _, ec := range ErrorCodes {
		if !codes[ec.Code] {
			continue
		}
		for _, st := range ec.Statuses {
			if st == 405 {
				continue
			}
			out[st] = append(out[st], ec.Code)
		}
	}
	return out
}

// OpenAPI builds the OpenAPI 3.1 document of every registered route.
func (rt *Router) OpenAPI() map[string]any { return rt.openAPI(nil) }

func (rt *Router) openAPI(d *describer) map[string]any {
	out, in := newSchemaSet(false, d), newSchemaSet(true, d)

	var codes strings.Builder
	codes.WriteString("The Voyage agency API. Every response is the envelope {code, data, message}; message is translated to the request language " +
		"(the lang query parameter, else the lang cookie, else Accept-Language; API-key callers default to English, portal sessions to zh-cn). " +
		"Requests are rate limited per API key, per user (all of its sessions together) and, on the public routes, per address (429 with Retry-After and the RateLimit headers). " +
		"A getting-started guide is at /api-docs/guide.\n\n| code | HTTP | meaning |\n|---|---|---|\n")
	codeEnum := []int{}
	codeMessage := map[int]string{}
	for _, c := range ErrorCodes {
		sts := []string{}
		for _, s := range c.Statuses {
			sts = append(sts, strconv.Itoa(s))
		}
		fmt.Fprintf(&codes, "| %d | %s | %s |\n", c.Code, strings.Join(sts, ", "), c.Meaning)
		if c.Code != fault.CodeOK {
			codeEnum = append(codeEnum, c.Code)
		}
		codeMessage[c.Code] = c.Meaning
	}
	components := map[string]any{}
	components["ErrorEnvelope"] = map[string]any{
		"type":        "object",
		"description": "An error: code is non-zero, message is translated, data is null or the error's details.",
		"required":    []string{"code", "data", "message"},
		"properties": map[string]any{
			"code": map[string]any{"type": "integer", "enum": codeEnum, "description": "The error's code (the table above); the HTTP status gives its family."},
			"data": map[string]any{"description": "null, or the error's details: the fields at fault for 100001, a refused passenger list's rows",
				"anyOf": []any{map[string]any{"type": "null"}, out.of(ErrorDetail{})}},
			"message": map[string]any{"type": "string", "description": "What went wrong, in the request's language: fit to show to the user."},
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
		responses := map[string]any{}
		if len(r.Op.Produces) > 0 {
			content := map[string]any{}
			for _, ct := range r.Op.Produces {
				content[ct] = map[string]any{"schema": map[string]any{"type": "string", "format": "binary"}}
			}
			responses[fmt.Sprint(status)] = map[string]any{"description": "the file", "content": content,
				"headers": map[string]any{"Content-Disposition": map[string]any{"description": "attachment; filename=…", "schema": map[string]any{"type": "string"}}}}
		} else {
			responses[fmt.Sprint(status)] = map[string]any{
				"description": "success",
				"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
					"type":     "object",
					"required": []string{"code", "data", "message"},
					"properties": map[string]any{
						"code":    map[string]any{"type": "integer", "const": 0, "description": "0: the call succeeded."},
						"data":    described(out.of(r.Op.Response), "The call's answer."),
						"message": map[string]any{"type": "string", "description": "Empty on success."},
					},
				}}},
			}
		}
		errs := r.errorCodes()
		sts := make([]int, 0, len(errs))
		for st := range errs {
			sts = append(sts, st)
		}
		sort.Ints(sts)
		for _, st := range sts {
			cs := errs[st]
			names := []string{}
			for _, c := range cs {
				names = append(names, fmt.Sprintf("%d (%s)", c, codeMessage[c]))
			}
			resp := map[string]any{
				"description": httpStatusText[st] + ". Codes: " + strings.Join(names, "; "),
				"content": map[string]any{"application/json": map[string]any{
					"schema":  map[string]any{"$ref": "#/components/schemas/ErrorEnvelope"},
					"example": map[string]any{"code": cs[0], "data": nil, "message": codeMessage[cs[0]]},
				}},
			}
			if st == 429 || st == 503 {
				resp["headers"] = map[string]any{"Retry-After": map[string]any{"$ref": "#/components/headers/Retry-After"}}
				if st == 429 {
					h := resp["headers"].(map[string]any)
					for _, n := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
						h[n] = map[string]any{"$ref": "#/components/headers/" + n}
					}
				}
			}
			responses[fmt.Sprint(st)] = resp
		}
		op := map[string]any{
			"operationId": r.Op.ID,
			"summary":     summaryLine(r.Op.Summary),
			"description": r.Op.Summary,
			"tags":        []string{r.Op.Tag},
			"responses":   responses,
		}
		switch {
		case r.Op.Public:
			op["security"] = []any{}
		case r.Op.UserOnly:
			op["security"] = []any{map[string]any{"bearer": []string{}}}
		}
		params := []any{}
		for _, m := range pathParam.FindAllStringSubmatch(r.Path, -1) {
			var s map[string]any
			switch {
			case slices.Contains(r.Op.StringPath, m[1]):
				s = map[string]any{"type": "string"}
			case r.Op.PathEnum[m[1]] != nil:
				s = map[string]any{"type": "string", "enum": r.Op.PathEnum[m[1]]}
			case m[1] == "key" || m[1] == "currency" || m[1] == "kind":
				s = map[string]any{"type": "string"}
			default:
				s = map[string]any{"type": "integer", "format": "int64", "minimum": 1}
			}
			params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": s,
				"description": pathParamDescription(r.Path, m[1])})
		}
		for _, q := range r.Op.Query {
			s := map[string]any{"type": q.Type}
			if q.Enum != nil {
				s["enum"] = q.Enum
			}
			if q.Array {
				s = map[string]any{"type": "array", "items": s}
			}
			pm := map[string]any{"name": q.Name, "in": "query", "required": q.Required, "schema": s}
			if q.Description != "" {
				pm["description"] = q.Description
			}
			params = append(params, pm)
		}
		switch r.Op.Idempotency {
		case IdempotencyRequired:
			params = append(params, map[string]any{"$ref": "#/components/parameters/IdempotencyKeyRequired"})
		case IdempotencyOptional:
			params = append(params, map[string]any{"$ref": "#/components/parameters/IdempotencyKey"})
		}
		if len(params) > 0 {
			op["parameters"] = params
		}
		switch {
		case len(r.Op.RawBody) > 0:
			content := map[string]any{}
			for _, ct := range r.Op.RawBody {
				content[ct] = map[string]any{"schema": map[string]any{"type": "string", "format": "binary"}}
			}
			op["requestBody"] = map[string]any{"required": true, "content": content}
		case r.Op.Request != nil && r.Op.Multipart:
			s := in.of(r.Op.Request)
			op["requestBody"] = map[string]any{
				"required": true,
				"content":  map[string]any{"multipart/form-data": map[string]any{"schema": s}},
			}
		case r.Op.Request != nil:
			op["requestBody"] = map[string]any{
				"required": !r.Op.OptionalBody,
				"content":  map[string]any{"application/json": map[string]any{"schema": in.of(r.Op.Request)}},
			}
		}
		item[strings.ToLower(r.Method)] = op
	}

	webhooks := map[string]any{}
	inPaths := referencedFrom(paths)
	for _, w := range Webhooks {
		webhooks[w.Event] = map[string]any{"post": map[string]any{
			"operationId": "webhook" + strings.ReplaceAll(strings.Title(strings.ReplaceAll(w.Event, ".", " ")), " ", ""), //nolint:staticcheck // ASCII event names
			"summary":     w.Summary,
			"description": w.Summary + ". Sent as POST with the headers X-Voyage-Event (the event), X-Voyage-Delivery (the delivery id) and " +
				"X-Voyage-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\" keyed with the agency's whsec_ secret>. " +
				"Answer 2xx within the timeout; anything else is retried with backoff.",
			"tags":     []string{"webhooks"},
			"security": []any{},
			"parameters": []any{
				map[string]any{"name": "X-Voyage-Event", "in": "header", "required": true, "description": "The event, as the body's event.", "schema": map[string]any{"type": "string", "const": w.Event}},
				map[string]any{"name": "X-Voyage-Delivery", "in": "header", "required": true, "description": "The delivery's id, as the body's id: the same on every attempt, so a receiver can skip one it has handled.", "schema": map[string]any{"type": "string"}},
				map[string]any{"name": "X-Voyage-Signature", "in": "header", "required": true, "description": "t=<unix time>,v1=<hex HMAC-SHA256>", "schema": map[string]any{"type": "string"}},
			},
			"requestBody": map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
				"type":     "object",
				"required": []string{"id", "event", "createdAt", "agencyId", "data"},
				"properties": map[string]any{
					"id":        map[string]any{"type": "integer", "format": "int64", "description": "the delivery id (also X-Voyage-Delivery)"},
					"event":     map[string]any{"type": "string", "const": w.Event, "description": "The event (also the X-Voyage-Event header)."},
					"createdAt": map[string]any{"type": "string", "format": "date-time", "description": "When Voyage recorded the event."},
					"agencyId":  map[string]any{"type": "integer", "format": "int64", "description": "The agency whose notification URL receives the event: the booking's agency."},
					"data":      described(webhookData(out, inPaths, w.Data), "The event's data."),
				},
			}}}},
			"responses": map[string]any{"200": map[string]any{"description": "received; any 2xx status is accepted"}},
		}}
	}

	// Final names of the request-side schemas: the bare name unless a
	// response-side schema of that name differs, then Name + "Input".
	rename := map[string]string{}
	for name, s := range out.schemas {
		components[name] = s
	}
	inNames := make([]string, 0, len(in.schemas))
	for name := range in.schemas {
		inNames = append(inNames, name)
	}
	sort.Strings(inNames)
	for _, name := range inNames {
		final := name
		if _, clash := components[name]; clash {
			final = name + "Input"
		}
		rename[name] = final
	}
	for _, name := range inNames {
		components[rename[name]] = in.schemas[name]
	}
	for old, name := range formerSchemas {
		if _, ok := components[name]; ok {
			if _, taken := components[old]; !taken {
				components[old] = map[string]any{"$ref": "#/components/schemas/" + name,
					"description": "The same as " + name + ": the name an earlier version of this document gave it, kept for generated clients."}
			}
		}
	}

	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":       "Voyage agency API",
			"version":     DocumentVersion,
			"description": codes.String(),
			"license":     map[string]any{"name": "Proprietary", "identifier": "LicenseRef-Voyage"},
			"contact":     map[string]any{"name": "Voyage", "url": "/api-docs/guide"},
		},
		"servers":  []any{map[string]any{"url": "/", "description": "this server"}},
		"paths":    paths,
		"webhooks": webhooks,
		"tags":     tags(rt.Routes()),
		"components": map[string]any{
			"schemas": components,
			"parameters": map[string]any{
				"IdempotencyKey": map[string]any{"name": "Idempotency-Key", "in": "header", "required": false,
					"description": fmt.Sprintf("At most %d characters (every route that takes a key accepts that length). A replay with the same key and body answers the first result; the same key with another body is 409.", idempotency.MaxKey),
					"schema":      map[string]any{"type": "string", "maxLength": idempotency.MaxKey}},
				"IdempotencyKeyRequired": map[string]any{"name": "Idempotency-Key", "in": "header", "required": true,
					"description": fmt.Sprintf("At most %d characters (every route that takes a key accepts that length), required here. A replay with the same key and body answers the first result; the same key with another body is 409.", idempotency.MaxKey),
					"schema":      map[string]any{"type": "string", "minLength": 1, "maxLength": idempotency.MaxKey}},
			},
			"headers": map[string]any{
				"Retry-After":         map[string]any{"description": "seconds to wait before retrying", "schema": map[string]any{"type": "integer"}},
				"RateLimit-Limit":     map[string]any{"description": "requests allowed in the window (the burst)", "schema": map[string]any{"type": "integer"}},
				"RateLimit-Remaining": map[string]any{"description": "requests left in the window", "schema": map[string]any{"type": "integer"}},
				"RateLimit-Reset":     map[string]any{"description": "seconds until the window is full again", "schema": map[string]any{"type": "integer"}},
			},
			"securitySchemes": map[string]any{
				"bearer": map[string]any{"type": "http", "scheme": "bearer", "description": "session token from POST /base/v2/login"},
				"apiKey": map[string]any{"type": "apiKey", "in": "header", "name": "X-Api-Key", "description": "agency integration key"},
			},
		},
		"security": []any{map[string]any{"bearer": []string{}}, map[string]any{"apiKey": []string{}}},
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	s := string(raw)
	for _, name := range inNames {
		s = strings.ReplaceAll(s, `"#/components/schemas/`+inputMark+name+`"`, `"#/components/schemas/`+rename[name]+`"`)
	}
	var final map[string]any
	if err := json.Unmarshal([]byte(s), &final); err != nil {
		panic(err)
	}
	addExamples(final)
	return final
}

// summaryLine is the first clause of a summary, for the short summary line.
func summaryLine(s string) string {
	if i := strings.IndexAny(s, ":;("); i > 20 {
		s = strings.TrimSpace(s[:i])
	}
	if len(s) > 120 {
		s = s[:117] + "…"
	}
	return s
}

// tags lists the operations' tags in order, each described.
func tags(routes []Route) []any {
	seen := map[string]bool{}
	names := []string{}
	for _, r := range routes {
		if !seen[r.Op.Tag] {
			seen[r.Op.Tag] = true
			names = append(names, r.Op.Tag)
		}
	}
	sort.Strings(names)
	out := []any{}
	for _, n := range names {
		if n == "webhooks" {
			continue
		}
		out = append(out, map[string]any{"name": n, "description": "The " + n + " operations."})
	}
	out = append(out, map[string]any{"name": "webhooks", "description": "Events Voyage posts to the agency's notification URLs."})
	return out
}
