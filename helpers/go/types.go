package main

import (
	"encoding/json"
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
	"strings"
)

var intKinds = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true, "byte": true, "rune": true}
var floatKinds = map[string]bool{"float32": true, "float64": true}

var notJSON = map[string]string{
	"time.Time":       "use string (RFC 3339) instead of time.Time",
	"time.Duration":   "use an integer number of seconds or milliseconds instead of time.Duration",
	"json.RawMessage": "use a concrete type (a struct, map[string]any has no schema either)",
	"any":             "use a concrete type",
	"interface{}":     "use a concrete type",
	"complex64":       "use two float64 fields",
	"complex128":      "use two float64 fields",
	"[]byte":          "use string (base64) instead of []byte",
}

type unsupported struct{ what, hint string }

// schema maps a field type to a manifest schema. It reports whether a pointer made it optional.
func (x *extractor) schema(e ast.Expr, depth int) (map[string]any, bool, *unsupported) {
	if depth > 20 {
		return nil, false, &unsupported{"a recursive type", "use a plain type"}
	}
	text := exprString(e)
	if hint, ok := notJSON[text]; ok {
		return nil, false, &unsupported{text, hint}
	}
	switch t := e.(type) {
	case *ast.StarExpr:
		s, _, bad := x.schema(t.X, depth+1)
		return s, true, bad
	case *ast.ParenExpr:
		return x.schema(t.X, depth+1)
	case *ast.ArrayType:
		item, _, bad := x.schema(t.Elt, depth+1)
		if bad != nil {
			return nil, false, &unsupported{"items of " + bad.what, bad.hint}
		}
		return map[string]any{"type": "array", "items": item}, false, nil
	case *ast.MapType, *ast.StructType:
		return map[string]any{"type": "object"}, false, nil
	case *ast.InterfaceType:
		return nil, false, &unsupported{text, "use a concrete type"}
	case *ast.FuncType, *ast.ChanType:
		return nil, false, &unsupported{text, "functions and channels cannot be sent as JSON"}
	case *ast.SelectorExpr:
		return nil, false, &unsupported{"the type " + text + " from another package", "use a type of this package, or a built-in type"}
	case *ast.Ident:
		switch {
		case t.Name == "string":
			return map[string]any{"type": "string"}, false, nil
		case t.Name == "bool":
			return map[string]any{"type": "boolean"}, false, nil
		case intKinds[t.Name]:
			return map[string]any{"type": "integer"}, false, nil
		case floatKinds[t.Name]:
			return map[string]any{"type": "number"}, false, nil
		}
		spec, ok := x.types[t.Name]
		if !ok {
			return nil, false, &unsupported{"the type " + t.Name, "use a type declared in this package, or a built-in type"}
		}
		s, opt, bad := x.schema(spec.Type, depth+1)
		if bad != nil {
			return nil, false, bad
		}
		if values := x.consts[t.Name]; len(values) > 0 && (s["type"] == "string" || s["type"] == "integer" || s["type"] == "number") {
			s = copyMap(s)
			s["enum"] = values
		}
		return s, opt, nil
	}
	return nil, false, &unsupported{text, "use string, a number kind, bool, a slice, a map or a struct"}
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// structOf resolves the args type to its struct.
func (x *extractor) structOf(e ast.Expr) (*ast.StructType, bool) {
	switch t := e.(type) {
	case *ast.StructType:
		return t, true
	case *ast.Ident:
		if spec, ok := x.types[t.Name]; ok {
			return x.structOf(spec.Type)
		}
	case *ast.ParenExpr:
		return x.structOf(t.X)
	}
	return nil, false
}

func (x *extractor) fields(argsType ast.Expr, tool string, params *[]map[string]any, locs *[]Location, depth int) {
	st, ok := x.structOf(argsType)
	if !ok {
		x.diag("error", argsType.Pos(), "declare `type XArgs struct { ... }` and take it as the second parameter", "the arguments of tool '%s' must be a struct type of this package, not %s", tool, exprString(argsType))
		return
	}
	for _, field := range st.Fields.List {
		tag := reflect.StructTag("")
		if field.Tag != nil {
			if s, err := strconv.Unquote(field.Tag.Value); err == nil {
				tag = reflect.StructTag(s)
			}
		}
		jsonTag, hasJSON := tag.Lookup("json")
		parts := strings.Split(jsonTag, ",")
		if parts[0] == "-" && len(parts) == 1 {
			continue
		}
		if len(field.Names) == 0 {
			// An embedded struct without a json name: encoding/json flattens its fields.
			if !hasJSON || parts[0] == "" {
				inner := field.Type
				if star, ok := inner.(*ast.StarExpr); ok {
					inner = star.X
				}
				if depth < 10 {
					x.fields(inner, tool, params, locs, depth+1)
				}
				continue
			}
		}
		names := field.Names
		if len(names) == 0 {
			names = []*ast.Ident{ast.NewIdent(exprString(field.Type))}
		}
		for _, ident := range names {
			if !ident.IsExported() && len(field.Names) > 0 {
				continue
			}
			name := ident.Name
			if parts[0] != "" {
				name = parts[0]
			}
			omitempty := false
			for _, opt := range parts[1:] {
				if opt == "omitempty" || opt == "omitzero" {
					omitempty = true
				}
			}
			p, ok := x.param(field, ident.Pos(), name, tag, omitempty, tool)
			if ok {
				*params = append(*params, p)
				*locs = append(*locs, x.loc(ident.Pos()))
			}
		}
	}
}

func (x *extractor) param(field *ast.Field, pos token.Pos, name string, tag reflect.StructTag, omitempty bool, tool string) (map[string]any, bool) {
	s, pointer, bad := x.schema(field.Type, 0)
	if bad != nil {
		x.diag("error", pos, bad.hint, "parameter '%s' of tool '%s': %s has no manifest type", name, tool, bad.what)
		return nil, false
	}
	p := map[string]any{"name": name, "type": s["type"]}
	description := firstParagraph(docText(field.Doc))
	if description == "" {
		if js, ok := tag.Lookup("jsonschema"); ok {
			description = jsonschemaDescription(js)
		}
	}
	if description == "" && field.Comment != nil {
		description = docText(field.Comment)
		if description != "" {
			x.diag("warning", pos, "write it as a // comment on the line above the field", "the description of '%s' comes from a trailing comment, which editors do not show", name)
		}
	}
	if description != "" {
		p["description"] = description
	}
	p["required"] = !(pointer || omitempty)
	if raw, ok := tag.Lookup("default"); ok {
		value, err := parseTagValue(raw, s["type"].(string))
		if err != nil {
			x.diag("error", pos, `e.g. default:"3" for an integer, default:"[\"a\"]" for an array`, "default:%q of '%s' is not a valid %s", raw, name, s["type"])
		} else {
			p["default"] = value
			p["required"] = false
		}
	}
	if raw, ok := tag.Lookup("enum"); ok {
		var values []any
		for _, part := range strings.Split(raw, ",") {
			v, err := parseTagValue(strings.TrimSpace(part), s["type"].(string))
			if err != nil {
				x.diag("error", pos, "list values of the field's type, comma-separated", "enum value %q of '%s' is not a valid %s", part, name, s["type"])
				continue
			}
			values = append(values, v)
		}
		p["enum"] = values
	} else if enum, ok := s["enum"]; ok {
		p["enum"] = enum
	}
	if items, ok := s["items"]; ok {
		p["items"] = items
	}
	return p, true
}

func jsonschemaDescription(tag string) string {
	if !strings.Contains(tag, "description=") {
		return normalise(tag)
	}
	i := strings.Index(tag, "description=") + len("description=")
	var b strings.Builder
	for j := i; j < len(tag); j++ {
		if tag[j] == '\\' && j+1 < len(tag) && tag[j+1] == ',' {
			b.WriteByte(',')
			j++
			continue
		}
		if tag[j] == ',' {
			break
		}
		b.WriteByte(tag[j])
	}
	return normalise(b.String())
}

func parseTagValue(raw, typ string) (any, error) {
	switch typ {
	case "string":
		return raw, nil
	case "integer":
		return strconv.ParseInt(raw, 10, 64)
	case "number":
		return strconv.ParseFloat(raw, 64)
	case "boolean":
		return strconv.ParseBool(raw)
	}
	var v any
	err := json.Unmarshal([]byte(raw), &v)
	return v, err
}
