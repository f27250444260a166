// github-token: repository facts from a GitHub-like API (a deterministic stand-in). The token comes
// from the invoke's context.credentials, else GITHUB_TOKEN in the environment; the connection
// check shows it masked, and a missing token is a success:false result with a hint.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

var manifest = map[string]any{
	"name":         "github-token",
	"display_name": "GitHub Repos",
	"version":      "1.3.0",
	"description":  "Looks up repositories with your GitHub token.",
	"tools": []any{
		map[string]any{"name": "whoami", "description": "Which token is configured (masked)", "parameters": []any{}},
		map[string]any{
			"name":        "repo_stars",
			"description": "Star count of a repository",
			"parameters": []any{
				map[string]any{"name": "repo", "type": "string", "description": "owner/name", "required": true},
			},
		},
	},
	"credentials": []any{
		map[string]any{"name": "GITHUB_TOKEN", "display_name": "GitHub token", "description": "A fine-grained token with read access", "required": true, "sensitive": true},
	},
	"runtime": map[string]any{"type": "binary"},
}

func token(params map[string]any) string {
	ctx, _ := params["context"].(map[string]any)
	creds, _ := ctx["credentials"].(map[string]any)
	if t, ok := creds["GITHUB_TOKEN"].(string); ok && t != "" {
		return t
	}
	return os.Getenv("GITHUB_TOKEN")
}

func mask(t string) string {
	if len(t) <= 8 {
		return "****"
	}
	return t[:4] + strings.Repeat("*", 4) + t[len(t)-4:]
}

func invoke(params map[string]any) map[string]any {
	tool, _ := params["tool"].(string)
	args, _ := params["arguments"].(map[string]any)
	if tool != "whoami" && tool != "repo_stars" {
		return map[string]any{"error": map[string]any{"code": -32601, "message": "Unknown tool: " + tool}}
	}
	repo, ok := args["repo"].(string)
	if tool == "repo_stars" && !ok {
		return map[string]any{"error": map[string]any{"code": -32602, "message": "repo (string, owner/name) is required"}}
	}
	t := token(params)
	if t == "" {
		return map[string]any{"result": map[string]any{"success": false, "error": "GITHUB_TOKEN is not configured: add it in Anna's plugin settings (or export it for local runs)"}}
	}
	if tool == "whoami" {
		return map[string]any{"result": map[string]any{"success": true, "data": map[string]any{"token": mask(t)}}}
	}
	return map[string]any{"result": map[string]any{"success": true, "data": map[string]any{"repo": repo, "stars": crc32.ChecksumIEEE([]byte(repo)) % 50000}}}
}

func main() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	go func() { <-sigs; os.Exit(0) }()
	w := bufio.NewWriter(os.Stdout)
	reply := func(v map[string]any) {
		v["jsonrpc"] = "2.0"
		b, _ := json.Marshal(v)
		w.Write(append(b, '\n'))
		w.Flush()
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var raw any
			if jerr := json.Unmarshal(line, &raw); jerr != nil {
				reply(map[string]any{"id": nil, "error": map[string]any{"code": -32700, "message": "Parse error"}})
			} else if msg, ok := raw.(map[string]any); !ok {
				reply(map[string]any{"id": nil, "error": map[string]any{"code": -32600, "message": "Invalid Request"}})
			} else if id, has := msg["id"]; has {
				params, _ := msg["params"].(map[string]any)
				switch msg["method"] {
				case "describe":
					reply(map[string]any{"id": id, "result": manifest})
				case "health":
					reply(map[string]any{"id": id, "result": map[string]any{"status": "ready", "message": "", "details": map[string]any{}}})
				case "invoke":
					r := invoke(params)
					r["id"] = id
					reply(r)
				default:
					reply(map[string]any{"id": id, "error": map[string]any{"code": -32601, "message": fmt.Sprintf("Method not found: %.40v", msg["method"])}})
				}
			}
		}
		if err != nil {
			return
		}
	}
}
