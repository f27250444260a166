package main

// The calls a tool makes on values reached from its context: executa.FromContext(ctx) and its
// Host, a variable assigned one of those, a parameter of type *executa.Invocation,
// *executa.HostClient or *executa.AgentSession, followed into the package's functions the tool
// calls. Each is reported with the names from the host client (or the agent session) to the
// callee; create-executa (src/manifest/host-helpers.ts) decides which are host-service helpers
// and what each sends.

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// How deep calls are followed into the package's functions, and how many are read per tool.
const (
	maxCallDepth = 6
	maxFunctions = 200
)

// RawHostCall is one call on a reached value.
type RawHostCall struct {
	Location
	Root   string    `json:"root"`
	Path   []string  `json:"path"`
	Args   []*string `json:"args"`
	Callee string    `json:"callee"`
}

// reached is what an expression is: the invocation, or a value off the host client or a session.
type reached struct {
	invocation bool
	root       string
	path       []string
}

func (r reached) member(name string) (reached, bool) {
	if r.invocation {
		return reached{root: "host", path: []string{}}, name == "Host"
	}
	return reached{root: r.root, path: append(append([]string{}, r.path...), name)}, true
}

type hostIndex struct {
	funcs   map[string]*ast.FuncDecl
	methods map[string][]*ast.FuncDecl
	fileOf  map[*ast.FuncDecl]*ast.File
	strs    map[string]string
}

func (x *extractor) hostIndex() *hostIndex {
	ix := &hostIndex{funcs: map[string]*ast.FuncDecl{}, methods: map[string][]*ast.FuncDecl{}, fileOf: map[*ast.FuncDecl]*ast.File{}, strs: map[string]string{}}
	for _, f := range x.files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				ix.fileOf[d] = f
				if d.Body == nil {
					continue
				}
				if d.Recv == nil {
					ix.funcs[d.Name.Name] = d
				} else {
					ix.methods[d.Name.Name] = append(ix.methods[d.Name.Name], d)
				}
			case *ast.GenDecl:
				if d.Tok != token.CONST {
					continue
				}
				for _, s := range d.Specs {
					vs := s.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								if v, err := strconv.Unquote(lit.Value); err == nil {
									ix.strs[name.Name] = v
								}
							}
						}
					}
				}
			}
		}
	}
	return ix
}

// runtimeNames are the names a file imports the vendored runtime (…/internal/executa) under.
func runtimeNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	if f == nil {
		return names
	}
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil || !(path == "executa" || strings.HasSuffix(path, "/executa")) {
			continue
		}
		if imp.Name != nil {
			names[imp.Name.Name] = true
		} else {
			names["executa"] = true
		}
	}
	return names
}

type hostScope struct {
	env     map[string]reached
	runtime map[string]bool
}

// typeRoot is the value a parameter or variable of this type is.
func (s *hostScope) typeRoot(t ast.Expr) (reached, bool) {
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	sel, ok := t.(*ast.SelectorExpr)
	if !ok {
		return reached{}, false
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || !s.runtime[pkg.Name] {
		return reached{}, false
	}
	switch sel.Sel.Name {
	case "Invocation":
		return reached{invocation: true}, true
	case "HostClient":
		return reached{root: "host", path: []string{}}, true
	case "AgentSession":
		return reached{root: "session", path: []string{}}, true
	}
	return reached{}, false
}

func (s *hostScope) value(e ast.Expr) (reached, bool) {
	switch v := e.(type) {
	case *ast.ParenExpr:
		return s.value(v.X)
	case *ast.Ident:
		r, ok := s.env[v.Name]
		return r, ok
	case *ast.SelectorExpr:
		if base, ok := s.value(v.X); ok {
			return base.member(v.Sel.Name)
		}
	case *ast.CallExpr:
		if sel, ok := v.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "FromContext" {
			if pkg, ok := sel.X.(*ast.Ident); ok && s.runtime[pkg.Name] {
				return reached{invocation: true}, true
			}
		}
		if base, ok := s.value(v.Fun); ok && !base.invocation {
			return reached{root: base.root, path: append(append([]string{}, base.path...), "()")}, true
		}
	}
	return reached{}, false
}

func (s *hostScope) bindFields(fields *ast.FieldList) {
	if fields == nil {
		return
	}
	for _, f := range fields.List {
		if r, ok := s.typeRoot(f.Type); ok {
			for _, n := range f.Names {
				if _, bound := s.env[n.Name]; !bound {
					s.env[n.Name] = r
				}
			}
		}
	}
}

func (s *hostScope) assign(target ast.Expr, r reached) bool {
	id, ok := target.(*ast.Ident)
	if !ok || id.Name == "_" {
		return false
	}
	if _, bound := s.env[id.Name]; bound {
		return false
	}
	s.env[id.Name] = r
	return true
}

// assignments adds the names the body gives a reached value (`inv := executa.FromContext(ctx)`,
// `session, err := inv.Host.AgentCreate(...)`, `var s *executa.AgentSession`), and closures' typed parameters.
func (s *hostScope) assignments(body ast.Node) {
	for pass := 0; pass < 3; pass++ {
		changed := false
		ast.Inspect(body, func(n ast.Node) bool {
			switch v := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range v.Lhs {
					var rhs ast.Expr
					if len(v.Rhs) == len(v.Lhs) {
						rhs = v.Rhs[i]
					} else if i == 0 && len(v.Rhs) == 1 {
						rhs = v.Rhs[0]
					}
					if rhs != nil {
						if r, ok := s.value(rhs); ok && s.assign(lhs, r) {
							changed = true
						}
					}
				}
			case *ast.ValueSpec:
				for i, name := range v.Names {
					if i < len(v.Values) {
						if r, ok := s.value(v.Values[i]); ok && s.assign(name, r) {
							changed = true
						}
					} else if v.Type != nil {
						if r, ok := s.typeRoot(v.Type); ok && s.assign(name, r) {
							changed = true
						}
					}
				}
			case *ast.FuncLit:
				before := len(s.env)
				s.bindFields(v.Type.Params)
				changed = changed || len(s.env) != before
			}
			return true
		})
		if !changed {
			return
		}
	}
}

// hostCalls is every call the tool makes on a reached value, in its body and the package functions it calls.
func (x *extractor) hostCalls(ix *hostIndex, tool *ast.FuncDecl) []RawHostCall {
	calls := []RawHostCall{}
	type item struct {
		fn    *ast.FuncDecl
		env   map[string]reached
		depth int
	}
	seen := map[*ast.FuncDecl]bool{tool: true}
	queue := []item{{fn: tool, env: map[string]reached{}}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		s := &hostScope{env: it.env, runtime: runtimeNames(ix.fileOf[it.fn])}
		s.bindFields(it.fn.Type.Params)
		s.assignments(it.fn.Body)
		ast.Inspect(it.fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if r, ok := s.value(call.Fun); ok && !r.invocation {
				calls = append(calls, x.rawCall(ix, call, r))
				return true
			}
			if target := ix.callee(call.Fun, s); target != nil && !seen[target] && it.depth < maxCallDepth && len(seen) < maxFunctions {
				seen[target] = true
				queue = append(queue, item{fn: target, env: s.bind(target, call), depth: it.depth + 1})
			}
			return true
		})
	}
	return calls
}

// callee is the package function (or the one package method of that name) a call names.
func (ix *hostIndex) callee(fun ast.Expr, s *hostScope) *ast.FuncDecl {
	switch f := fun.(type) {
	case *ast.Ident:
		return ix.funcs[f.Name]
	case *ast.SelectorExpr:
		if recv, ok := f.X.(*ast.Ident); ok && s.runtime[recv.Name] {
			return nil
		}
		if m := ix.methods[f.Sel.Name]; len(m) == 1 {
			return m[0]
		}
	}
	return nil
}

// bind gives the callee's parameters the reached values the call passes them.
func (s *hostScope) bind(fn *ast.FuncDecl, call *ast.CallExpr) map[string]reached {
	env := map[string]reached{}
	i := 0
	for _, f := range fn.Type.Params.List {
		names := f.Names
		if len(names) == 0 {
			i++
			continue
		}
		for _, n := range names {
			if i < len(call.Args) {
				if r, ok := s.value(call.Args[i]); ok {
					env[n.Name] = r
				}
			}
			i++
		}
	}
	return env
}

func (x *extractor) rawCall(ix *hostIndex, call *ast.CallExpr, r reached) RawHostCall {
	args := make([]*string, len(call.Args))
	for i, a := range call.Args {
		switch v := a.(type) {
		case *ast.BasicLit:
			if v.Kind == token.STRING {
				if s, err := strconv.Unquote(v.Value); err == nil {
					args[i] = &s
				}
			}
		case *ast.Ident:
			if s, ok := ix.strs[v.Name]; ok {
				args[i] = &s
			}
		}
	}
	return RawHostCall{Location: x.loc(call.Pos()), Root: r.root, Path: r.path, Args: args, Callee: exprString(call.Fun)}
}
