package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

const directive = "//executa:tool"

// Diagnostic is a problem with its source location.
type Diagnostic struct {
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
}

// Location is where a declaration is.
type Location struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// ToolLocation is where a tool and its parameters are declared.
type ToolLocation struct {
	Location
	Parameters []Location `json:"parameters"`
}

// Binding is a tool name and the Go function that handles it.
type Binding struct {
	Tool   string `json:"tool"`
	Module string `json:"module"`
	Symbol string `json:"symbol"`
}

// Result is what the helper prints.
type Result struct {
	Tools          []map[string]any `json:"tools"`
	Locations      []ToolLocation   `json:"locations"`
	HostCalls      [][]RawHostCall  `json:"hostCalls"`
	Bindings       []Binding        `json:"bindings"`
	Diagnostics    []Diagnostic     `json:"diagnostics"`
	BindingsSource string           `json:"bindingsSource"`
}

type extractor struct {
	dir   string
	fset  *token.FileSet
	files []*ast.File
	names []string
	types map[string]*ast.TypeSpec
	// consts lists, per named type, the values of its constants in declaration order.
	consts map[string][]any
	diags  []Diagnostic
}

func (x *extractor) loc(pos token.Pos) Location {
	p := x.fset.Position(pos)
	rel, err := filepath.Rel(x.dir, p.Filename)
	if err != nil {
		rel = p.Filename
	}
	return Location{File: filepath.ToSlash(rel), Line: p.Line, Column: p.Column}
}

func (x *extractor) diag(severity string, pos token.Pos, hint string, format string, args ...any) {
	l := x.loc(pos)
	x.diags = append(x.diags, Diagnostic{Severity: severity, Message: fmt.Sprintf(format, args...), Hint: hint, File: l.File, Line: l.Line, Column: l.Column})
}

// parseErrors reports the parser's errors at their own positions (at most ten per file).
func (x *extractor) parseErrors(name string, err error) {
	var list scanner.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		x.diags = append(x.diags, Diagnostic{Severity: "error", Message: err.Error(), File: name, Line: 1, Column: 1})
		return
	}
	for i, e := range list {
		if i == 10 {
			break
		}
		x.diags = append(x.diags, Diagnostic{Severity: "error", Message: e.Msg, File: name, Line: max(e.Pos.Line, 1), Column: max(e.Pos.Column, 1)})
	}
}

func (x *extractor) hasErrors() bool {
	for _, d := range x.diags {
		if d.Severity == "error" {
			return true
		}
	}
	return false
}

func extract(dir, module string) (*Result, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	x := &extractor{dir: dir, fset: token.NewFileSet(), types: map[string]*ast.TypeSpec{}, consts: map[string][]any{}}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == "executa_bindings.go" {
			continue
		}
		f, err := parser.ParseFile(x.fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			x.parseErrors(name, err)
			continue
		}
		if f.Name.Name != "main" {
			continue
		}
		x.files = append(x.files, f)
		x.names = append(x.names, name)
	}
	x.index()
	res := &Result{Tools: []map[string]any{}, Locations: []ToolLocation{}, HostCalls: [][]RawHostCall{}, Bindings: []Binding{}}
	hosts := x.hostIndex()
	for _, f := range x.files {
		attached := map[*ast.CommentGroup]bool{}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Doc == nil {
				continue
			}
			line, pos := directiveLine(fn.Doc)
			if line == "" {
				continue
			}
			attached[fn.Doc] = true
			tool, tl, ok := x.readTool(fn, line, pos)
			if !ok {
				continue
			}
			res.Tools = append(res.Tools, tool)
			res.Locations = append(res.Locations, tl)
			res.HostCalls = append(res.HostCalls, x.hostCalls(hosts, fn))
			res.Bindings = append(res.Bindings, Binding{Tool: tool["name"].(string), Module: module, Symbol: fn.Name.Name})
		}
		for _, cg := range f.Comments {
			if line, pos := directiveLine(cg); line != "" && !attached[cg] {
				x.diag("error", pos, "put it in the doc comment right above a func(ctx context.Context, args T) (R, error)", "%s is not in the doc comment of a function", directive)
			}
		}
	}
	if len(res.Tools) == 0 && !x.hasErrors() {
		read, first := "no Go files of package main", "go.mod"
		if len(x.names) > 0 {
			read, first = strings.Join(x.names, ", "), x.names[0]
		}
		x.diags = append(x.diags, Diagnostic{
			Severity: "error", File: first, Line: 1, Column: 1,
			Message: fmt.Sprintf("no function has a //executa:tool directive (read: %s)", read),
			Hint:    "put //executa:tool name=... in the doc comment of each tool function, or take the manifest from the running plugin: executa manifest --from-plugin -- <command>",
		})
	}
	res.Diagnostics = x.diags
	if res.Diagnostics == nil {
		res.Diagnostics = []Diagnostic{}
	}
	src, err := bindingsSource(res.Bindings, module)
	if err != nil {
		return nil, err
	}
	res.BindingsSource = src
	return res, nil
}

func directiveLine(cg *ast.CommentGroup) (string, token.Pos) {
	for _, c := range cg.List {
		if c.Text == directive || strings.HasPrefix(c.Text, directive+" ") || strings.HasPrefix(c.Text, directive+"\t") {
			return c.Text, c.Pos()
		}
	}
	return "", token.NoPos
}

// index records the package's type declarations and the typed constants of each named type.
func (x *extractor) index() {
	for _, f := range x.files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			switch gd.Tok {
			case token.TYPE:
				for _, s := range gd.Specs {
					ts := s.(*ast.TypeSpec)
					x.types[ts.Name.Name] = ts
				}
			case token.CONST:
				var typeName string
				var lastValues []ast.Expr
				for iota, s := range gd.Specs {
					vs := s.(*ast.ValueSpec)
					if vs.Type != nil {
						if id, ok := vs.Type.(*ast.Ident); ok {
							typeName = id.Name
						} else {
							typeName = ""
						}
						lastValues = vs.Values
					} else if len(vs.Values) > 0 {
						typeName, lastValues = "", vs.Values
					}
					if typeName == "" {
						continue
					}
					for i := range vs.Names {
						if vs.Names[i].Name == "_" || i >= len(lastValues) {
							continue
						}
						if v, ok := constValue(lastValues[i], iota); ok {
							x.consts[typeName] = append(x.consts[typeName], v)
						}
					}
				}
			}
		}
	}
}

// constValue evaluates a literal, iota, or iota plus/minus a literal.
func constValue(e ast.Expr, iota int) (any, bool) {
	switch v := e.(type) {
	case *ast.BasicLit:
		return basicValue(v)
	case *ast.Ident:
		if v.Name == "iota" {
			return int64(iota), true
		}
	case *ast.ParenExpr:
		return constValue(v.X, iota)
	case *ast.UnaryExpr:
		if inner, ok := constValue(v.X, iota); ok && v.Op == token.SUB {
			switch n := inner.(type) {
			case int64:
				return -n, true
			case float64:
				return -n, true
			}
		}
	case *ast.BinaryExpr:
		l, ok1 := constValue(v.X, iota)
		r, ok2 := constValue(v.Y, iota)
		li, ok3 := l.(int64)
		ri, ok4 := r.(int64)
		if ok1 && ok2 && ok3 && ok4 {
			switch v.Op {
			case token.ADD:
				return li + ri, true
			case token.SUB:
				return li - ri, true
			case token.MUL:
				return li * ri, true
			}
		}
	}
	return nil, false
}

func basicValue(v *ast.BasicLit) (any, bool) {
	switch v.Kind {
	case token.STRING:
		s, err := strconv.Unquote(v.Value)
		return s, err == nil
	case token.INT:
		n, err := strconv.ParseInt(strings.ReplaceAll(v.Value, "_", ""), 0, 64)
		return n, err == nil
	case token.FLOAT:
		n, err := strconv.ParseFloat(strings.ReplaceAll(v.Value, "_", ""), 64)
		return n, err == nil
	}
	return nil, false
}

// snake turns a Go name into snake_case: TextStats -> text_stats, ParseURL -> parse_url.
func snake(name string) string {
	var b strings.Builder
	runes := []rune(name)
	for i, r := range runes {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(runes[i-1]) || (i+1 < len(runes) && unicode.IsLower(runes[i+1]) && unicode.IsUpper(runes[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func parseDirective(line string) (map[string]string, error) {
	out := map[string]string{}
	rest := strings.TrimSpace(strings.TrimPrefix(line, directive))
	for rest != "" {
		eq := strings.IndexByte(rest, '=')
		if eq <= 0 {
			return nil, fmt.Errorf("expected key=value, got %q", rest)
		}
		key := strings.TrimSpace(rest[:eq])
		rest = rest[eq+1:]
		var value string
		if strings.HasPrefix(rest, `"`) {
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil, fmt.Errorf("bad quoted value for %s", key)
			}
			value, _ = strconv.Unquote(q)
			rest = rest[len(q):]
		} else {
			end := strings.IndexAny(rest, " \t")
			if end == -1 {
				end = len(rest)
			}
			value, rest = rest[:end], rest[end:]
		}
		out[key] = value
		rest = strings.TrimSpace(rest)
	}
	return out, nil
}

// docText is the doc comment without directives; paragraphs kept, lines joined with spaces.
func docText(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	return normalise(cg.Text())
}

func normalise(text string) string {
	var paragraphs []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		var words []string
		for _, l := range strings.Split(p, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				words = append(words, l)
			}
		}
		if len(words) > 0 {
			paragraphs = append(paragraphs, strings.Join(words, " "))
		}
	}
	return strings.Join(paragraphs, "\n\n")
}

func firstParagraph(text string) string {
	if i := strings.Index(text, "\n\n"); i >= 0 {
		return text[:i]
	}
	return text
}

func (x *extractor) readTool(fn *ast.FuncDecl, line string, pos token.Pos) (map[string]any, ToolLocation, bool) {
	tl := ToolLocation{Location: x.loc(fn.Name.Pos()), Parameters: []Location{}}
	opts, err := parseDirective(line)
	if err != nil {
		x.diag("error", pos, "write e.g. //executa:tool name=word_count timeout=10", "bad %s directive: %v", directive, err)
		return nil, tl, false
	}
	name := snake(fn.Name.Name)
	tool := map[string]any{}
	for key, value := range opts {
		switch key {
		case "name":
			name = value
		case "timeout":
			n, err := strconv.Atoi(value)
			if err != nil || n <= 0 {
				x.diag("error", pos, "write e.g. timeout=30", "timeout of tool '%s' must be a whole number of seconds above 0, not %q", name, value)
				continue
			}
			tool["timeout"] = n
		case "description":
			tool["description"] = value
		default:
			x.diag("error", pos, "the directive takes name=, timeout= and description=", "unknown %s key %q", directive, key)
		}
	}
	tool["name"] = name
	if _, ok := tool["description"]; !ok {
		tool["description"] = firstParagraph(docText(fn.Doc))
	}
	argsType, ok := x.checkSignature(fn, name)
	if !ok {
		return nil, tl, false
	}
	params := []map[string]any{}
	x.fields(argsType, name, &params, &tl.Parameters, 0)
	tool["parameters"] = params
	return tool, tl, true
}

func (x *extractor) checkSignature(fn *ast.FuncDecl, name string) (ast.Expr, bool) {
	const hint = "a tool handler is func(ctx context.Context, args T) (R, error) with T a struct type"
	t := fn.Type
	if fn.Recv != nil {
		x.diag("error", fn.Name.Pos(), hint, "tool '%s' is a method; it must be a plain function", name)
		return nil, false
	}
	var params []ast.Expr
	for _, f := range t.Params.List {
		n := len(f.Names)
		if n == 0 {
			n = 1
		}
		for i := 0; i < n; i++ {
			params = append(params, f.Type)
		}
	}
	var results []ast.Expr
	if t.Results != nil {
		for _, f := range t.Results.List {
			n := len(f.Names)
			if n == 0 {
				n = 1
			}
			for i := 0; i < n; i++ {
				results = append(results, f.Type)
			}
		}
	}
	if len(params) != 2 || exprString(params[0]) != "context.Context" || len(results) != 2 || exprString(results[1]) != "error" {
		x.diag("error", fn.Name.Pos(), hint, "tool '%s' has the signature %s", name, exprString(fn.Type))
		return nil, false
	}
	return params[1], true
}

func exprString(e ast.Expr) string {
	var b bytes.Buffer
	_ = format.Node(&b, token.NewFileSet(), e)
	return b.String()
}

func bindingsSource(bindings []Binding, module string) (string, error) {
	sorted := append([]Binding(nil), bindings...)
	var b strings.Builder
	b.WriteString("// Code generated by executa manifest. DO NOT EDIT.\n\npackage main\n\n")
	fmt.Fprintf(&b, "import %s\n\n", strconv.Quote(module+"/internal/executa"))
	b.WriteString("var bindings = executa.Bindings{\n")
	for _, bd := range sorted {
		fmt.Fprintf(&b, "\t%s: executa.Bind(%s),\n", strconv.Quote(bd.Tool), bd.Symbol)
	}
	b.WriteString("}\n")
	out, err := format.Source([]byte(b.String()))
	if err != nil {
		return "", fmt.Errorf("formatting the bindings: %w", err)
	}
	return string(out), nil
}

var _ = sort.Strings
