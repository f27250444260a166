package executa

import (
	"bytes"
	"encoding/json"
)

// maxDepth is the deepest frame the runtime takes; the frame object itself is level 1.
// Deeper frames are valid JSON or not, and may carry a top-level id, but are never decoded
// into values (a decoder's time and stack grow with depth).
const maxDepth = 64

// nestsTooDeep reports whether the bytes nest deeper than maxDepth (brackets inside strings
// do not count).
func nestsTooDeep(b []byte) bool {
	if bytes.Count(b, []byte{'['})+bytes.Count(b, []byte{'{'}) <= maxDepth {
		return false
	}
	depth := 0
	inString := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > maxDepth {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

type want int

const (
	wantValue want = iota
	wantValueOrClose
	wantKeyOrClose
	wantKey
	wantColon
	wantCommaOrClose
)

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') }

// stringEnd returns the end (past the closing quote) of the string that starts at i, or -1.
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			i++
			if i >= len(b) {
				return -1
			}
			if b[i] == 'u' {
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return -1
				}
				i += 4
			} else if !bytes.ContainsRune([]byte(`"\/bfnrt`), rune(b[i])) {
				return -1
			}
		}
	}
	return -1
}

// scalarEnd returns the end of the number or literal that starts at i, or -1.
func scalarEnd(b []byte, i int) int {
	for _, word := range []string{"true", "false", "null"} {
		if b[i] == word[0] {
			if bytes.HasPrefix(b[i:], []byte(word)) {
				return i + len(word)
			}
			return -1
		}
	}
	at := func(j int) byte {
		if j < len(b) {
			return b[j]
		}
		return 0
	}
	if at(i) == '-' {
		i++
	}
	switch {
	case at(i) == '0':
		i++
	case isDigit(at(i)):
		for isDigit(at(i)) {
			i++
		}
	default:
		return -1
	}
	if at(i) == '.' {
		if i++; !isDigit(at(i)) {
			return -1
		}
		for isDigit(at(i)) {
			i++
		}
	}
	if at(i) == 'e' || at(i) == 'E' {
		i++
		if at(i) == '+' || at(i) == '-' {
			i++
		}
		if !isDigit(at(i)) {
			return -1
		}
		for isDigit(at(i)) {
			i++
		}
	}
	return i
}

// scanDeep checks that the bytes are one JSON value without decoding it. When they are, id
// is the text of the top-level object's "id" member ("{}" when it is a container, nil when
// absent), and response says the object is a response: a "result" or "error" member and no
// "method".
func scanDeep(b []byte) (valid bool, id []byte, response bool) {
	stack := make([]byte, 0, 1024)
	state := wantValue
	keyIsID := false
	hasMethod, hasAnswer := false, false
	for i := 0; i < len(b); {
		c := b[i]
		if isSpace(c) {
			i++
			continue
		}
		switch {
		case state == wantColon:
			if c != ':' {
				return false, nil, false
			}
			state = wantValue
			i++
		case state == wantCommaOrClose:
			top := len(stack) - 1
			switch {
			case top < 0:
				return false, nil, false
			case c == ',':
				state = wantValue
				if stack[top] == '{' {
					state = wantKey
				}
			case (c == '}' && stack[top] == '{') || (c == ']' && stack[top] == '['):
				stack = stack[:top]
			default:
				return false, nil, false
			}
			i++
		case state == wantKey || state == wantKeyOrClose:
			if c == '}' && state == wantKeyOrClose {
				stack = stack[:len(stack)-1]
				state = wantCommaOrClose
				i++
				break
			}
			end := -1
			if c == '"' {
				end = stringEnd(b, i)
			}
			if end < 0 {
				return false, nil, false
			}
			var key string
			if len(stack) == 1 {
				_ = json.Unmarshal(b[i:end], &key)
			}
			keyIsID = len(stack) == 1 && key == "id"
			hasMethod = hasMethod || (len(stack) == 1 && key == "method")
			hasAnswer = hasAnswer || (len(stack) == 1 && (key == "result" || key == "error"))
			state = wantColon
			i = end
		case c == ']' && state == wantValueOrClose:
			stack = stack[:len(stack)-1]
			state = wantCommaOrClose
			i++
		case c == '[' || c == '{':
			if keyIsID {
				id = []byte("{}") // a container is never a valid id
			}
			keyIsID = false
			stack = append(stack, c)
			state = wantValueOrClose
			if c == '{' {
				state = wantKeyOrClose
			}
			i++
		default:
			end := -1
			if c == '"' {
				end = stringEnd(b, i)
			} else {
				end = scalarEnd(b, i)
			}
			if end < 0 {
				return false, nil, false
			}
			if keyIsID {
				id = b[i:end]
			}
			keyIsID = false
			state = wantCommaOrClose
			i = end
		}
		if len(stack) == 0 && state == wantCommaOrClose {
			for i < len(b) && isSpace(b[i]) {
				i++
			}
			return i == len(b), id, hasAnswer && !hasMethod
		}
	}
	return false, nil, false
}
