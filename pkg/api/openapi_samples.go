package api

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Code samples: every operation carries x-codeSamples (curl, Go with the
// generated pkg/apiclient, TypeScript with openapi-fetch), written from its
// example (captured from a real exchange where there is one), so a sample
// sends what the server accepts. pkg/app's TestCodeSamplesCompile builds
// the Go samples against pkg/apiclient and e2e/api_client_ts.test.mjs
// type-checks the TypeScript ones against the document's types.

// sampleCall is what the three samples of one operation are written from.
type sampleCall struct {
	method, path, opID string
	params             []sampleParam // path, query and header parameters
	json               any           // the JSON body, nil if none
	hasJSON            bool
	form               []formField // a multipart body
	raw                string      // a raw file body's content type
	success            string      // the documented 2xx status
	paramsStruct       bool        // the Go client takes a Params struct (query or header parameters)
	jsonAnswer         bool
	dataAnswer         bool // the answer's data is more than null
	public, userOnly   bool
}

type sampleParam struct {
	name, in, typ string
	required      bool
	value         any
}

type formField struct {
	name    string
	binary  bool
	value   string // as the form sends it
	example any    // as the schema types it
	many    bool   // a list of files, each a part of the name
}

// isFile reports a schema of a file's bytes (a []byte is reflected as
// base64 content, an upload described by hand as binary).
func isFile(s map[string]any) bool {
	return s != nil && s["type"] == "string" && (s["format"] == "binary" || s["contentEncoding"] == "base64")
}

// addCodeSamples writes x-codeSamples into every operation of doc. ex holds
// each operation's captured path and query values (by "METHOD /path").
func addCodeSamples(doc map[string]any, ex map[string]Captured) {
	paths, _ := doc["paths"].(map[string]any)
	for path, item := range paths {
		for method, o := range item.(map[string]any) {
			op := o.(map[string]any)
			call := newSampleCall(doc, strings.ToUpper(method), path, op, ex[strings.ToUpper(method)+" "+path])
			op["x-codeSamples"] = []any{
				map[string]any{"lang": "Shell", "label": "curl", "source": call.curl()},
				map[string]any{"lang": "Go", "label": "Go", "source": call.goSample()},
				map[string]any{"lang": "TypeScript", "label": "TypeScript", "source": call.tsSample()},
			}
		}
	}
}

func newSampleCall(doc map[string]any, method, path string, op map[string]any, ex Captured) sampleCall {
	c := sampleCall{method: method, path: path}
	c.opID, _ = op["operationId"].(string)
	if sec, ok := op["security"].([]any); ok {
		c.public = len(sec) == 0
		c.userOnly = len(sec) == 1 && sec[0].(map[string]any)["apiKey"] == nil
	}
	query, _ := url.ParseQuery(ex.Query)
	ps, _ := op["parameters"].([]any)
	for _, p := range ps {
		pm := p.(map[string]any)
		if ref, ok := pm["$ref"].(string); ok {
			pm = resolve(doc, ref)
		}
		sp := sampleParam{name: pm["name"].(string), in: pm["in"].(string)}
		if sp.in != "path" {
			c.paramsStruct = true
		}
		sp.required, _ = pm["required"].(bool)
		s, _ := pm["schema"].(map[string]any)
		sp.typ, _ = s["type"].(string)
		switch sp.in {
		case "path":
			sp.value = typed(ex.Path[sp.name], s)
		case "query":
			vs, ok := query[sp.name]
			if !ok {
				if !sp.required {
					continue
				}
				vs = []string{fmt.Sprint(exampleOf(doc, s))}
			}
			if sp.typ == "array" {
				items, _ := s["items"].(map[string]any)
				arr := []any{}
				for _, v := range vs {
					arr = append(arr, typed(v, items))
				}
				sp.value = arr
			} else {
				sp.value = typed(vs[0], s)
			}
		case "header":
			if sp.name == "Idempotency-Key" {
				sp.value = "7c4f9e2a-order-0001"
			}
		}
		c.params = append(c.params, sp)
	}
	if rb, ok := op["requestBody"].(map[string]any); ok {
		content := rb["content"].(map[string]any)
		if m, ok := content["application/json"].(map[string]any); ok {
			c.hasJSON, c.json = true, m["example"]
		}
		for _, ct := range []string{"image/png", "application/octet-stream"} {
			if _, ok := content[ct]; ok && !c.hasJSON && c.raw == "" {
				c.raw = ct
			}
		}
		if m, ok := content["multipart/form-data"].(map[string]any); ok {
			s, _ := m["schema"].(map[string]any)
			if ref, ok := s["$ref"].(string); ok {
				s = resolve(doc, ref)
			}
			props, _ := s["properties"].(map[string]any)
			req, _ := s["required"].([]any)
			for _, name := range sortedKeys(props) {
				p := props[name].(map[string]any)
				items, _ := p["items"].(map[string]any)
				f := formField{name: name, binary: isFile(p) || isFile(items), many: p["type"] == "array"}
				if !f.binary {
					if !slices.Contains(req, any(name)) {
						continue
					}
					f.example = exampleOf(doc, p)
					f.value = fmt.Sprint(f.example)
				}
				c.form = append(c.form, f)
			}
		}
	}
	for st, r := range op["responses"].(map[string]any) {
		if strings.HasPrefix(st, "2") {
			c.success = st
			content, _ := r.(map[string]any)["content"].(map[string]any)
			var m any
			m, c.jsonAnswer = content["application/json"]
			if c.jsonAnswer {
				props, _ := m.(map[string]any)["schema"].(map[string]any)["properties"].(map[string]any)
				data, _ := props["data"].(map[string]any)
				c.dataAnswer = data["type"] != "null"
			}
		}
	}
	return c
}

func resolve(doc map[string]any, ref string) map[string]any {
	var cur any = doc
	for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		cur = cur.(map[string]any)[part]
	}
	m, _ := cur.(map[string]any)
	return m
}

func exampleOf(doc map[string]any, s map[string]any) any {
	schemas, _ := doc["components"].(map[string]any)["schemas"].(map[string]any)
	return (&exampler{schemas: schemas}).of(s, 0)
}

// typed is v, a path or query string, as the JSON value its schema types.
func typed(v string, s map[string]any) any {
	switch s["type"] {
	case "integer":
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
		return int64(1)
	case "number":
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			return n
		}
	case "boolean":
		return v == "true"
	}
	if v == "" {
		if en, ok := s["enum"].([]any); ok && len(en) > 0 {
			return en[0]
		}
		return "example"
	}
	return v
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// url is the path with the example's path parameters in.
func (c sampleCall) url() string {
	p := c.path
	for _, sp := range c.params {
		if sp.in == "path" {
			p = strings.ReplaceAll(p, "{"+sp.name+"}", url.PathEscape(fmt.Sprint(sp.value)))
		}
	}
	q := url.Values{}
	for _, sp := range c.params {
		if sp.in != "query" {
			continue
		}
		if arr, ok := sp.value.([]any); ok {
			for _, v := range arr {
				q.Add(sp.name, fmt.Sprint(v))
			}
			continue
		}
		q.Set(sp.name, fmt.Sprint(sp.value))
	}
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	return p
}

func indentJSON(v any) string {
	raw, _ := json.MarshalIndent(v, "", "  ")
	return string(raw)
}

func (c sampleCall) curl() string {
	var b strings.Builder
	fmt.Fprintf(&b, "curl -X %s \"$VOYAGE_URL%s\"", c.method, c.url())
	switch {
	case c.public:
	case c.userOnly:
		b.WriteString(" \\\n  -H \"Authorization: Bearer $VOYAGE_TOKEN\"")
	default:
		b.WriteString(" \\\n  -H \"X-Api-Key: $VOYAGE_API_KEY\"")
	}
	for _, sp := range c.params {
		if sp.in == "header" && sp.value != nil {
			fmt.Fprintf(&b, " \\\n  -H \"%s: %v\"", sp.name, sp.value)
		}
	}
	if c.hasJSON {
		b.WriteString(" \\\n  -H \"Content-Type: application/json\" \\\n  -d '")
		b.WriteString(strings.ReplaceAll(indentJSON(c.json), "'", `'\''`))
		b.WriteString("'")
	}
	if c.raw != "" {
		fmt.Fprintf(&b, " \\\n  -H \"Content-Type: %s\" \\\n  --data-binary @%s", c.raw, sampleFile(c.path))
	}
	for _, f := range c.form {
		if f.binary {
			fmt.Fprintf(&b, " \\\n  -F \"%s=@%s\"", f.name, sampleFile(f.name))
		} else {
			fmt.Fprintf(&b, " \\\n  -F %s", shellQuote(f.name+"="+f.value))
		}
	}
	return b.String()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// sampleFile names a plausible file for a multipart part.
func sampleFile(part string) string {
	switch {
	case strings.Contains(part, "avatar"):
		return "avatar.png"
	case strings.Contains(part, "logo"):
		return "logo.png"
	case strings.Contains(part, "list"), strings.Contains(part, "passengers"):
		return "passengers.xlsx"
	case strings.Contains(part, "image"), strings.Contains(part, "document"), strings.Contains(part, "scan"):
		return "passport.jpg"
	}
	return "attachment.pdf"
}

// goName is oapi-codegen's name for an operation id or a parameter.
func goName(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func goLiteral(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// goSample calls the operation with pkg/apiclient's ClientWithResponses c
// (built as the guide shows) inside a function that has ctx.
func (c sampleCall) goSample() string {
	var b strings.Builder
	name := goName(c.opID)
	args := []string{"ctx"}
	var fields []string
	for _, sp := range c.params {
		switch sp.in {
		case "path":
			args = append(args, goLiteral(sp.value))
		case "query", "header":
			if !sp.required || sp.typ == "array" || sp.value == nil {
				continue
			}
			fields = append(fields, goName(sp.name)+": "+goLiteral(sp.value))
		}
	}
	if c.paramsStruct {
		args = append(args, "&apiclient."+name+"Params{"+strings.Join(fields, ", ")+"}")
	}
	call := name + "WithResponse"
	switch {
	case c.hasJSON:
		call = name + "WithBodyWithResponse"
		body := indentJSON(c.json)
		if strings.Contains(body, "`") {
			body = strconv.Quote(body)
		} else {
			body = "`" + body + "`"
		}
		args = append(args, `"application/json"`, "strings.NewReader("+body+")")
	case c.raw != "":
		call = name + "WithBodyWithResponse"
		fmt.Fprintf(&b, "file, err := os.ReadFile(%q)\nif err != nil {\n\treturn err\n}\n", sampleFile(c.path))
		args = append(args, strconv.Quote(c.raw), "bytes.NewReader(file)")
	case len(c.form) > 0:
		call = name + "WithBodyWithResponse"
		b.WriteString("var body bytes.Buffer\nform := multipart.NewWriter(&body)\n")
		for _, f := range c.form {
			if f.binary {
				file := sampleFile(f.name)
				fmt.Fprintf(&b, "file, err := os.ReadFile(%q)\nif err != nil {\n\treturn err\n}\n", file)
				fmt.Fprintf(&b, "part, err := form.CreateFormFile(%q, %q)\nif err != nil {\n\treturn err\n}\nif _, err := part.Write(file); err != nil {\n\treturn err\n}\n", f.name, file)
				break
			}
		}
		for _, f := range c.form {
			if !f.binary {
				fmt.Fprintf(&b, "if err := form.WriteField(%q, %q); err != nil {\n\treturn err\n}\n", f.name, f.value)
			}
		}
		b.WriteString("if err := form.Close(); err != nil {\n\treturn err\n}\n")
		args = append(args, "form.FormDataContentType()", "&body")
	}
	fmt.Fprintf(&b, "res, err := c.%s(%s)\nif err != nil {\n\treturn err\n}\n", call, strings.Join(args, ", "))
	if c.jsonAnswer {
		fmt.Fprintf(&b, "if res.JSON%s == nil {\n\treturn fmt.Errorf(\"%%s: %%s\", res.Status(), res.Body)\n}\nfmt.Printf(\"%%+v\\n\", res.JSON%s.Data)", c.success, c.success)
	} else {
		b.WriteString("fmt.Println(res.Status(), len(res.Body))")
	}
	return b.String()
}

func tsLiteral(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// tsSample calls the operation with an openapi-fetch client of the
// document's types (createClient<paths>).
func (c sampleCall) tsSample() string {
	var b strings.Builder
	groups := map[string][]string{}
	for _, sp := range c.params {
		if sp.value == nil {
			continue
		}
		key := sp.name
		if !isIdent(key) {
			key = tsLiteral(key)
		}
		groups[sp.in] = append(groups[sp.in], key+": "+tsLiteral(sp.value))
	}
	var opts []string
	var params []string
	for _, in := range []string{"path", "query", "header"} {
		if len(groups[in]) > 0 {
			params = append(params, in+": { "+strings.Join(groups[in], ", ")+" }")
		}
	}
	if len(params) > 0 {
		opts = append(opts, "params: { "+strings.Join(params, ", ")+" }")
	}
	if c.hasJSON {
		body := strings.ReplaceAll(indentJSON(c.json), "\n", "\n  ")
		opts = append(opts, "body: "+body)
	}
	if c.raw != "" {
		b.WriteString("// file: the image (a File from an <input type=\"file\">, or a Blob); it is the whole body\n")
		opts = append(opts, "body: ''", "bodySerializer: () => file", "headers: { 'Content-Type': "+tsLiteral(c.raw)+" }")
	}
	if len(c.form) > 0 {
		b.WriteString("// file: the file to send (a File from an <input type=\"file\">, or a Blob)\nconst form = new FormData();\n")
		var body []string
		for _, f := range c.form {
			if f.binary {
				fmt.Fprintf(&b, "form.append(%s, file, %s);\n", tsLiteral(f.name), tsLiteral(sampleFile(f.name)))
				if f.many {
					body = append(body, tsKey(f.name)+": []")
				} else {
					body = append(body, tsKey(f.name)+": ''")
				}
			} else {
				fmt.Fprintf(&b, "form.append(%s, %s);\n", tsLiteral(f.name), tsLiteral(f.value))
				body = append(body, tsKey(f.name)+": "+tsLiteral(f.example))
			}
		}
		opts = append(opts, "body: { "+strings.Join(body, ", ")+" }", "bodySerializer: () => form")
	}
	fmt.Fprintf(&b, "const { data, error } = await client.%s(%s", c.method, tsLiteral(c.path))
	if len(opts) > 0 {
		b.WriteString(", {\n  " + strings.Join(opts, ",\n  ") + ",\n}")
	}
	b.WriteString(");\nif (error) throw new Error(error.message);\n")
	switch {
	case c.dataAnswer:
		b.WriteString("console.log(data.data);")
	case c.jsonAnswer:
		b.WriteString("console.log(data.code); // 0: done")
	default:
		b.WriteString("console.log(data);")
	}
	return b.String()
}

func tsKey(k string) string {
	if isIdent(k) {
		return k
	}
	return tsLiteral(k)
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || r == '$' || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}
