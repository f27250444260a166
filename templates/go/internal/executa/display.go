package executa

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
)

// WithDisplay returns a copy of data with display as its top-level "_display": what Anna's
// chat renders verbatim instead of letting the model paraphrase it (long reference §9). The
// runtime defines no block types; it only puts the value in its place.
//
// data must be an object: a map[string]any, or a struct or map converted through its JSON
// form. display must encode as a JSON object or array, and hold only values JSON can carry:
// no NaN or ±Inf, no cycles, no funcs or channels. Anything else is an error naming the path
// of the bad value.
func WithDisplay(data any, display any) (map[string]any, error) {
	out, err := displayData(data)
	if err != nil {
		return nil, err
	}
	v := reflect.ValueOf(display)
	for (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && !v.IsNil() {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Map, reflect.Struct, reflect.Slice, reflect.Array:
	default:
		return nil, fmt.Errorf("WithDisplay: display must be an object or an array, got %s", describe(display))
	}
	if err := checkDisplay(reflect.ValueOf(display), "display", map[any]bool{}); err != nil {
		return nil, err
	}
	encoded, err := json.Marshal(display)
	if err != nil {
		return nil, fmt.Errorf("WithDisplay: display cannot be encoded as JSON: %w", err)
	}
	if kind := jsonType(encoded); kind != "object" && kind != "array" {
		return nil, fmt.Errorf("WithDisplay: display must be an object or an array, got %s", article(kind))
	}
	out["_display"] = json.RawMessage(encoded)
	return out, nil
}

// displayData is a copy of data as a map; a struct or another map goes through its JSON form.
func displayData(data any) (map[string]any, error) {
	if m, ok := data.(map[string]any); ok && m != nil {
		out := make(map[string]any, len(m)+1)
		for k, v := range m {
			out[k] = v
		}
		return out, nil
	}
	v := reflect.ValueOf(data)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	encoded, err := json.Marshal(data)
	if err != nil && (v.Kind() == reflect.Struct || v.Kind() == reflect.Map) {
		return nil, fmt.Errorf("WithDisplay: data cannot be encoded as JSON: %w", err)
	}
	if err != nil || jsonType(encoded) != "object" {
		return nil, fmt.Errorf("WithDisplay: data must be an object (a map or a struct), got %s", describe(data))
	}
	decoder := json.NewDecoder(bytes.NewReader(encoded))
	decoder.UseNumber() // numbers stay exactly as they were
	var out map[string]any
	if err := decoder.Decode(&out); err != nil {
		return nil, fmt.Errorf("WithDisplay: %w", err)
	}
	return out, nil
}

// describe names a value by its JSON type ("an array", "null"), else by its Go type.
func describe(value any) string {
	encoded, err := json.Marshal(value)
	if err != nil {
		return fmt.Sprintf("a %T", value)
	}
	return article(jsonType(encoded))
}

// article names a JSON type for a message: "an array", "a string", "null".
func article(jsonKind string) string {
	switch jsonKind {
	case "null":
		return "null"
	case "array", "object":
		return "an " + jsonKind
	}
	return "a " + jsonKind
}

var (
	jsonMarshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshaler = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

// checkDisplay walks a value as encoding/json would and names the first one JSON cannot
// carry. ancestors holds the maps, slices and pointers on the path, to find cycles.
func checkDisplay(v reflect.Value, path string, ancestors map[any]bool) error {
	if !v.IsValid() {
		return nil
	}
	if v.Type().Implements(jsonMarshaler) || v.Type().Implements(textMarshaler) {
		return nil // it encodes itself; json.Marshal reports its errors
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("WithDisplay: %s is %v, which JSON cannot carry", path, f)
		}
	case reflect.Complex64, reflect.Complex128, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return fmt.Errorf("WithDisplay: %s is a %s, which JSON cannot carry", path, v.Type())
	case reflect.Interface:
		return checkDisplay(v.Elem(), path, ancestors)
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if v.IsNil() {
			return nil
		}
		key := any(v.Pointer())
		if v.Kind() == reflect.Slice {
			key = [2]uintptr{v.Pointer(), uintptr(v.Len())}
		}
		if ancestors[key] {
			return fmt.Errorf("WithDisplay: %s refers back to itself (a cycle)", path)
		}
		ancestors[key] = true
		defer delete(ancestors, key)
		return checkContainer(v, path, ancestors)
	case reflect.Array, reflect.Struct:
		return checkContainer(v, path, ancestors)
	}
	return nil
}

func checkContainer(v reflect.Value, path string, ancestors map[any]bool) error {
	switch v.Kind() {
	case reflect.Pointer:
		return checkDisplay(v.Elem(), path, ancestors)
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // bytes: a base64 string
		}
		for i := 0; i < v.Len(); i++ {
			if err := checkDisplay(v.Index(i), fmt.Sprintf("%s[%d]", path, i), ancestors); err != nil {
				return err
			}
		}
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			if err := checkDisplay(v.MapIndex(k), fmt.Sprintf("%s.%v", path, k), ancestors); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			field := v.Type().Field(i)
			name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
			if !field.IsExported() && !field.Anonymous || name == "-" {
				continue
			}
			child := path
			if !field.Anonymous || name != "" {
				if name == "" {
					name = field.Name
				}
				child = path + "." + name
			}
			if err := checkDisplay(v.Field(i), child, ancestors); err != nil {
				return err
			}
		}
	}
	return nil
}
