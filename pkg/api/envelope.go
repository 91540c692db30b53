// Package api is the provider agency API: the JSON envelope, error codes,
// routing with an OpenAPI document of every route, and the handlers under
// /base/v2, /order/v2 and /shopping/v2.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/input"
)

// StatusClientClosed is the status an answer nobody waits for is logged
// with: nginx's 499, "client closed request".
const StatusClientClosed = 499

// Envelope is the body of every API response.
type Envelope struct {
	Code    int    `json:"code"`
	Data    any    `json:"data"`
	Message string `json:"message"`
}

// ValidationData is the data of a 100001 error: field → translated message.
type ValidationData struct {
	Fields map[string]string `json:"fields"`
}

// ErrorDetail is an error envelope's data as the document gives it, made
// of the types the errors are written from (ValidationData, a list's
// group.ListErrors), so a client reads error.data.fields typed.
type ErrorDetail struct {
	Fields map[string]string `json:"fields,omitempty" jsonschema_description:"100001: each field at fault and what is wrong, translated. A field is named by its path in the request: properties joined by dots, a list's item by its index in brackets (passengers[0].surname, contact.email), or body for the body as a whole"`
	Errors []group.RowError  `json:"errors,omitempty" jsonschema_description:"a refused passenger list: each problem by row (1 is the header) and column, translated"`
}

// FieldPathPattern is the form of a field's path in ErrorDetail.Fields
// (fault.Item, fault.Field), stated in the document, where integrators read
// it and the API tests check every answer against it.
const FieldPathPattern = `^(body|(\[\d+\])*[A-Za-z_][\w-]*(\[\d+\])*(\.[A-Za-z_][\w-]*(\[\d+\])*)*|(\[\d+\])+)$`

// JSONSchemaExtend gives the fields' names their pattern.
func (ErrorDetail) JSONSchemaExtend(s *jsonschema.Schema) {
	if f, ok := s.Properties.Get("fields"); ok {
		f.PropertyNames = &jsonschema.Schema{Type: "string", Pattern: FieldPathPattern}
	}
}

// WriteJSON writes an envelope with code 0.
func WriteJSON(w http.ResponseWriter, status int, data any) {
	writeEnvelope(w, status, Envelope{Code: fault.CodeOK, Data: data})
}

// WriteError writes err as a translated error envelope. Unexpected errors are
// logged with the request and reported as a generic internal error.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	// The caller hung up: nothing went wrong on this side and no one reads
	// the answer. The access log records it as nginx does (499), below the
	// error level an operator is woken for.
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		slog.InfoContext(r.Context(), "client went away", "method", r.Method, "path", r.URL.Path)
		w.WriteHeader(StatusClientClosed)
		return
	}
	fe := fault.From(err)
	if fe.Status >= 500 {
		slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	env := Envelope{Code: fe.Code, Message: i18n.T(r.Context(), fe.Key, fe.Args...)}
	if len(fe.Fields) > 0 {
		fields := make(map[string]string, len(fe.Fields))
		for f, key := range fe.Fields {
			fields[f] = i18n.T(r.Context(), key)
		}
		env.Data = ValidationData{Fields: fields}
	}
	// An error carrying its own data (a passenger list's row errors) fills
	// the envelope's data with it, its messages in the request's language.
	var de interface {
		ErrorData(translate func(key string) string) any
	}
	if errors.As(err, &de) {
		env.Data = de.ErrorData(func(key string) string { return i18n.T(r.Context(), key) })
	}
	if secs := fe.RetryAfterSeconds(); secs > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	}
	writeEnvelope(w, fe.Status, env)
}

func writeEnvelope(w http.ResponseWriter, status int, env Envelope) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(env); err != nil {
		slog.Debug("api: write response", "err", err)
	}
}

// Decode reads a JSON request body into v. A body over the server's limit is
// 413; anything unparsable, or trailing data after the object, is 400 100001;
// a string with a control character (a NUL stops PostgreSQL) is a field
// error naming where it is (input.BadJSON), and nothing of it reaches v. A
// property v does not have is a field error naming its path (UnknownFieldKey,
// unknownField):
// a misspelt field silently dropped once refunded both passengers of an
// order where one was meant ("passengerIds" for "passengers"). A property
// the request's type marks required and the body leaves out is a field
// error naming it (RequiredKey, missingRequired). A value of the wrong type
// is a field error naming its path (TypeKey, input.PathAt), and so is one
// its type refuses as it decodes itself (FormatKey, refusedValue).
func Decode(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		return fault.Malformed(errors.New("content type " + ct + " is not application/json"))
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return fault.TooLarge(tooLarge.Limit)
		}
		return fault.Malformed(err)
	}
	// BadJSON also refuses what is not one JSON value (empty, trailing
	// data): the body is parsed once for both.
	if field, bad, err := input.BadJSON(data); err != nil {
		return fault.Malformed(err)
	} else if bad {
		return fault.Validation(map[string]string{field: input.FieldKey})
	}
	t := reflect.TypeOf(v)
	strict := json.NewDecoder(bytes.NewReader(data))
	strict.DisallowUnknownFields()
	if err := strict.Decode(v); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), `json: unknown field "`); ok {
			field := strings.TrimSuffix(name, `"`)
			if path := unknownField(data, t); path != "" {
				field = path
			}
			return fault.Validation(map[string]string{field: UnknownFieldKey})
		}
		var wrong *json.UnmarshalTypeError
		if errors.As(err, &wrong) {
			if path := input.PathAt(data, wrong.Offset); path != "" {
				return fault.Validation(map[string]string{path: TypeKey})
			}
		}
		if path := refusedValue(data, t); path != "" {
			return fault.Validation(map[string]string{path: FormatKey})
		}
		return fault.Malformed(err)
	}
	if field := missingRequired(data, t); field != "" {
		return fault.Validation(map[string]string{field: RequiredKey})
	}
	return nil
}

// TypeKey is the catalog key of the field error for a value of the wrong
// JSON type: a number for a string, a list for an object, 1.5 for a whole
// number.
const TypeKey = "error.field.type"

// FormatKey is the catalog key of the field error for a value its type,
// decoding itself, refuses: a time without its zone, a number for a time.
const FormatKey = "error.field.format"

// UnknownFieldKey is the catalog key of the field error for a property the
// request does not have.
const UnknownFieldKey = "error.field.unknown"
