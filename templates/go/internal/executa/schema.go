package executa

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
)

// The host's limits on a json_schema response format (long reference §7.1), checked before
// sending. Bytes are those of the schema serialised as compact UTF-8 JSON; depth counts nested
// subschemas (the root is level 1); nodes count every subschema, the root included.
const (
	schemaMaxBytes = 32768
	schemaMaxDepth = 8
	schemaMaxNodes = 512
)

// schemaNamePattern is the rule for a response format's schema name. A loop, not a regexp:
// compiling {1,64} at start-up took ~900 allocations, most of the package's init.
var schemaNamePattern schemaNameRule

type schemaNameRule struct{}

func (schemaNameRule) String() string { return `^[a-zA-Z0-9_-]{1,64}$` }

// MatchString reports whether name is 1 to 64 ASCII letters, digits, _ or -.
func (schemaNameRule) MatchString(name string) bool {
	if len(name) < 1 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// The keywords whose value is one subschema (items may also be a list), a list of them, or a
// map of them, in the order the host walks them.
var (
	oneSubschema   = []string{"additionalProperties", "items", "not", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "if", "then", "else", "additionalItems"}
	listSubschemas = []string{"anyOf", "oneOf", "allOf", "prefixItems"}
	mapSubschemas  = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)

// schemaSize measures a schema as the host does: it decodes the JSON the runtime sends the
// way JavaScript's JSON.parse does and serialises it back with JSON.stringify (bytes), then
// walks its subschemas in JavaScript's member order (depth and nodes; the walk stops one past
// a limit, as the host's does).
func schemaSize(schema []byte) (size struct{ bytes, depth, nodes int }, err error) {
	root, err := parseJS(json.NewDecoder(bytes.NewReader(schema)))
	if err != nil {
		return size, err
	}
	var out bytes.Buffer
	root.stringify(&out)
	size.bytes = out.Len()
	var walk func(s *jsValue, level int)
	walk = func(s *jsValue, level int) {
		size.nodes++
		size.depth = max(size.depth, level)
		if level > schemaMaxDepth+1 || size.nodes > schemaMaxNodes+1 {
			return
		}
		for _, child := range s.subschemas() {
			walk(child, level+1)
		}
	}
	walk(root, 1)
	return size, nil
}

// jsValue is a JSON value as JavaScript holds it: numbers are float64, and an object's
// members are in JavaScript's order (integer keys ascending, then the others as they first
// appeared; a repeated name keeps its place and takes the last value).
type jsValue struct {
	kind    byte // 'o' object, 'a' array, 's' string, 'n' number, 't' true, 'f' false, 'z' null
	str     string
	num     float64
	keys    []string
	members map[string]*jsValue
	items   []*jsValue
}

func (v *jsValue) get(key string) *jsValue {
	if v.kind != 'o' {
		return nil
	}
	return v.members[key]
}

func (v *jsValue) subschemas() []*jsValue {
	var out []*jsValue
	isObject := func(c *jsValue) bool { return c != nil && c.kind == 'o' }
	for _, k := range oneSubschema {
		c := v.get(k)
		if isObject(c) {
			out = append(out, c)
		} else if k == "items" && c != nil && c.kind == 'a' {
			for _, item := range c.items {
				if isObject(item) {
					out = append(out, item)
				}
			}
		}
	}
	for _, k := range listSubschemas {
		if c := v.get(k); c != nil && c.kind == 'a' {
			for _, item := range c.items {
				if isObject(item) {
					out = append(out, item)
				}
			}
		}
	}
	for _, k := range mapSubschemas {
		if c := v.get(k); isObject(c) {
			for _, key := range c.keys {
				if isObject(c.members[key]) {
					out = append(out, c.members[key])
				}
			}
		}
	}
	return out
}

var errNotJSON = errors.New("not a JSON value")

func parseJS(d *json.Decoder) (*jsValue, error) {
	d.UseNumber()
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			v := &jsValue{kind: 'a'}
			for d.More() {
				item, err := parseJS(d)
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, item)
			}
			_, err = d.Token()
			return v, err
		}
		if t != '{' {
			return nil, errNotJSON
		}
		v := &jsValue{kind: 'o', members: map[string]*jsValue{}}
		for d.More() {
			keyTok, err := d.Token()
			if err != nil {
				return nil, err
			}
			key, _ := keyTok.(string)
			member, err := parseJS(d)
			if err != nil {
				return nil, err
			}
			if _, seen := v.members[key]; !seen {
				v.keys = append(v.keys, key)
			}
			v.members[key] = member
		}
		_, err = d.Token()
		sort.SliceStable(v.keys, func(i, j int) bool { return arrayIndexLess(v.keys[i], v.keys[j]) })
		return v, err
	case string:
		return &jsValue{kind: 's', str: t}, nil
	case json.Number:
		f, _ := strconv.ParseFloat(string(t), 64) // out of range is ±Inf, as in JavaScript
		return &jsValue{kind: 'n', num: f}, nil
	case bool:
		if t {
			return &jsValue{kind: 't'}, nil
		}
		return &jsValue{kind: 'f'}, nil
	case nil:
		return &jsValue{kind: 'z'}, nil
	}
	return nil, errNotJSON
}

// arrayIndex reports whether key is a JavaScript array index ("0", "17", not "017" or "-1"),
// the keys an object lists first, ascending.
func arrayIndex(key string) (uint64, bool) {
	n, err := strconv.ParseUint(key, 10, 64)
	if err != nil || n >= 1<<32-1 || strconv.FormatUint(n, 10) != key {
		return 0, false
	}
	return n, true
}

func arrayIndexLess(a, b string) bool {
	ia, aok := arrayIndex(a)
	ib, bok := arrayIndex(b)
	if aok && bok {
		return ia < ib
	}
	return aok && !bok
}

// stringify writes the value as JavaScript's JSON.stringify does.
func (v *jsValue) stringify(out *bytes.Buffer) {
	switch v.kind {
	case 'o':
		out.WriteByte('{')
		for i, key := range v.keys {
			if i > 0 {
				out.WriteByte(',')
			}
			jsQuote(out, key)
			out.WriteByte(':')
			v.members[key].stringify(out)
		}
		out.WriteByte('}')
	case 'a':
		out.WriteByte('[')
		for i, item := range v.items {
			if i > 0 {
				out.WriteByte(',')
			}
			item.stringify(out)
		}
		out.WriteByte(']')
	case 's':
		jsQuote(out, v.str)
	case 'n':
		if v.num-v.num != 0 { // ±Inf
			out.WriteString("null")
		} else {
			out.WriteString(shortestJSON(v.num))
		}
	case 't':
		out.WriteString("true")
	case 'f':
		out.WriteString("false")
	default:
		out.WriteString("null")
	}
}

// jsQuote writes s as a JSON string the way JSON.stringify does: only ", \ and control
// characters are escaped.
func jsQuote(out *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	out.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			out.WriteByte('\\')
			out.WriteRune(r)
		case r == '\b':
			out.WriteString(`\b`)
		case r == '\f':
			out.WriteString(`\f`)
		case r == '\n':
			out.WriteString(`\n`)
		case r == '\r':
			out.WriteString(`\r`)
		case r == '\t':
			out.WriteString(`\t`)
		case r < 0x20:
			out.WriteString(`\u00`)
			out.WriteByte(hex[r>>4])
			out.WriteByte(hex[r&0xf])
		default:
			out.WriteRune(r) // utf8.RuneError for what was not UTF-8, as the frame carries it
		}
	}
	out.WriteByte('"')
}
