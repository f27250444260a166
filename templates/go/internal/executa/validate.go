package executa

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// ArgumentProblem is one entry of a -32602 "Invalid arguments" answer.
type ArgumentProblem struct {
	Parameter string `json:"parameter"`
	Message   string `json:"message"`
}

// checkArguments checks an invoke's arguments (a JSON object) against the tool's
// parameters. It returns the problems (one per parameter and issue), or the arguments the
// handler sees: a JSON object in manifest order, where null for an optional parameter means
// "not given" and a missing optional parameter carries the manifest default.
func checkArguments(t *tool, raw json.RawMessage) (json.RawMessage, []ArgumentProblem) {
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, []ArgumentProblem{{Parameter: "", Message: err.Error()}}
	}
	var problems []ArgumentProblem
	out := make([]byte, 0, len(raw)+64)
	out = append(out, '{')
	add := func(p *parameter, value []byte) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, p.key...)
		out = append(out, ':')
		out = append(out, value...)
	}
	for i := range t.Parameters {
		p := &t.Parameters[i]
		value, given := args[p.Name]
		if !given || string(value) == "null" {
			if p.required() {
				problems = append(problems, ArgumentProblem{p.Name, "required"})
			} else if p.Default != nil {
				add(p, p.Default)
			}
			continue
		}
		checked, problem := typeProblem(value, p.Type)
		if problem != "" {
			problems = append(problems, ArgumentProblem{p.Name, problem})
			continue
		}
		if p.Type == "array" {
			var itemProblems []ArgumentProblem
			checked, itemProblems = checkItems(p, checked)
			problems = append(problems, itemProblems...)
		}
		if p.Enum != nil && !inEnum(p, checked) {
			problems = append(problems, ArgumentProblem{p.Name, "must be one of: " + p.enumText})
		}
		add(p, checked)
	}
	if len(args) > countKnown(t, args) {
		for _, name := range objectKeys(raw) {
			if !t.hasParameter(name) {
				problems = append(problems, ArgumentProblem{name, "unknown parameter"})
			}
		}
	}
	if problems != nil {
		return nil, problems
	}
	return append(out, '}'), nil
}

func (t *tool) hasParameter(name string) bool {
	for i := range t.Parameters {
		if t.Parameters[i].Name == name {
			return true
		}
	}
	return false
}

func countKnown(t *tool, args map[string]json.RawMessage) int {
	n := 0
	for i := range t.Parameters {
		if _, ok := args[t.Parameters[i].Name]; ok {
			n++
		}
	}
	return n
}

// objectKeys lists a JSON object's keys in their order, once each.
func objectKeys(raw []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	var keys []string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		key, _ := tok.(string)
		if !seen[key] {
			seen[key] = true
			keys = append(keys, key)
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys
		}
	}
	return keys
}

func checkItems(p *parameter, value []byte) ([]byte, []ArgumentProblem) {
	var items []json.RawMessage
	if err := json.Unmarshal(value, &items); err != nil {
		return value, []ArgumentProblem{{p.Name, err.Error()}}
	}
	itemType := p.itemType()
	var problems []ArgumentProblem
	rewritten := false
	for i, item := range items {
		checked, problem := typeProblem(item, itemType)
		if problem != "" {
			problems = append(problems, ArgumentProblem{p.Name, "item " + strconv.Itoa(i) + ": " + problem})
			continue
		}
		if !bytes.Equal(checked, item) {
			items[i] = checked
			rewritten = true
		}
	}
	if rewritten && problems == nil {
		value, _ = json.Marshal(items)
	}
	return value, problems
}

// jsonType names a JSON value's type, as the error messages say it.
func jsonType(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// rangeProblem is the message for an integer beyond what every language holds exactly.
var rangeProblem = fmt.Sprintf("integer out of range (±%d)", int64(maxSafeInteger))

// typeProblem says why a value does not have the manifest type ("" when it does). An integer
// written with a fraction or an exponent (1.0, 1e3) is returned rewritten as a plain integer,
// so that it decodes into a Go int.
func typeProblem(v []byte, typ string) ([]byte, string) {
	kind := jsonType(v)
	expected := "expected " + typ + ", got " + kind
	switch typ {
	case "string", "object", "array", "boolean":
		if kind != typ {
			return v, expected
		}
	case "number":
		if kind != "number" {
			return v, expected
		}
		if f, err := strconv.ParseFloat(string(v), 64); err != nil || math.IsInf(f, 0) {
			return v, "number out of range"
		}
	case "integer":
		if kind != "number" {
			return v, expected
		}
		if n, ok := safeInteger(v); ok {
			if bytes.IndexAny(v, ".eE") < 0 {
				return v, ""
			}
			return strconv.AppendInt(nil, n, 10), ""
		}
		if f, err := strconv.ParseFloat(string(v), 64); err == nil && f == math.Trunc(f) || math.Abs(f) > maxSafeInteger {
			return v, rangeProblem
		}
		return v, expected
	}
	return v, "" // a type the runtime does not know: the tool decides
}

func inEnum(p *parameter, value []byte) bool {
	var v any
	if err := json.Unmarshal(value, &v); err != nil {
		return false
	}
	for _, allowed := range p.enumValue {
		if reflect.DeepEqual(allowed, v) {
			return true
		}
	}
	return false
}
