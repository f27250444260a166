// Command executa-go-extract reads the //executa:tool handlers of a Go plugin with go/ast and
// prints them, with the formatted bindings file, as one JSON object. Part of create-executa
// (`executa manifest`). Usage: executa-go-extract <project-dir> <module-path>
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: executa-go-extract <project-dir> [module-path]")
		os.Exit(2)
	}
	module := ""
	if len(os.Args) > 2 {
		module = os.Args[2]
	}
	result, err := extract(os.Args[1], module)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(result); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
