package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"executa.test/runtime/internal/executa"
)

// serviceArgs are the args of every service call, in the TypeScript helper's option names
// (docs/runtime-contract.md, the test tools); each call maps the ones it takes to its helper.
type serviceArgs struct {
	executa.SampleRequest // messages, maxTokens, systemPrompt, temperature, ..., responseFormat, onUnsupported

	Prompt    string `json:"prompt"`
	TimeoutMs int    `json:"timeoutMs"`

	// agent
	UUID             string           `json:"uuid"`
	Kind             string           `json:"kind"`
	Submode          string           `json:"submode"`
	FixedClientID    string           `json:"fixedClientId"`
	Label            string           `json:"label"`
	QuotaCaps        map[string]any   `json:"quotaCaps"`
	TTLSeconds       int              `json:"ttlSeconds"`
	InheritHostTools *bool            `json:"inheritHostTools"`
	GrantedTools     []string         `json:"grantedTools"`
	Content          string           `json:"content"`
	Attachments      []map[string]any `json:"attachments"`
	RecursionLimit   int              `json:"recursionLimit"`
	RunID            string           `json:"runId"`
	IncludeExpired   bool             `json:"includeExpired"`
	Limit            int              `json:"limit"`

	// embeddings and images
	Input              json.RawMessage `json:"input"`
	Model              string          `json:"model"`
	N                  int             `json:"n"`
	Size               json.RawMessage `json:"size"` // an image size ("1024x1024"), or the byte count of an upload
	ReferenceImageURLs []string        `json:"referenceImageUrls"`
	ImageURL           string          `json:"imageUrl"`
	MaskURL            string          `json:"maskUrl"`

	// uploads, files and storage
	Text        *string         `json:"text"`
	Filename    string          `json:"filename"`
	MimeType    string          `json:"mimeType"`
	Purpose     string          `json:"purpose"`
	Path        string          `json:"path"`
	Scope       string          `json:"scope"`
	ContentType string          `json:"contentType"`
	ExpiresIn   int             `json:"expiresIn"`
	Prefix      string          `json:"prefix"`
	Cursor      string          `json:"cursor"`
	Key         string          `json:"key"`
	Value       json.RawMessage `json:"value"`
	IfMatch     string          `json:"ifMatch"`

	// display and progress
	Data    any    `json:"data"`
	Display any    `json:"display"`
	Type    string `json:"type"`

	// web
	Query          string   `json:"query"`
	MaxResults     int      `json:"maxResults"`
	SearchDepth    string   `json:"searchDepth"`
	Topic          string   `json:"topic"`
	TimeRange      string   `json:"timeRange"`
	Region         string   `json:"region"`
	IncludeDomains []string `json:"includeDomains"`
	ExcludeDomains []string `json:"excludeDomains"`
	URL            string   `json:"url"`
	URLs           []string `json:"urls"`
	Format         string   `json:"format"`
	MaxChars       int      `json:"maxChars"`
	FetchTimeoutMs int      `json:"fetchTimeoutMs"`
}

// bytes is the UTF-8 of args.text, or args.size bytes of x.
func (a *serviceArgs) bytes() []byte {
	if a.Text != nil {
		return []byte(*a.Text)
	}
	var n int
	_ = json.Unmarshal(a.Size, &n)
	return []byte(strings.Repeat("x", n))
}

func (a *serviceArgs) imageSize() string {
	var size string
	_ = json.Unmarshal(a.Size, &size)
	return size
}

func (a *serviceArgs) sampleRequest() executa.SampleRequest {
	req := a.SampleRequest
	req.Prompt = a.Prompt
	return req
}

type sampled struct {
	Text            string          `json:"text"`
	StructuredValid bool            `json:"structured_valid"`
	Downgraded      bool            `json:"downgraded"`
	Parsed          json.RawMessage `json:"parsed"`
}

func sampledOf(r *executa.SampleResult, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	parsed := r.Parsed
	if parsed == nil {
		parsed = json.RawMessage("null")
	}
	return sampled{r.Text, r.StructuredValid, r.Downgraded, parsed}, nil
}

// hostResult is the host's result as it was sent (the Raw of the helper's result), or the error.
func hostResult(r any, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return reflect.ValueOf(r).Elem().FieldByName("Raw").Interface(), nil
}

// result returns a helper's typed result, or its error.
func result[R any](r R, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return r, nil
}

var serviceCalls = map[string]func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error){
	"web.search": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.WebSearch(ctx, executa.WebSearchRequest{
			Query: a.Query, MaxResults: a.MaxResults, SearchDepth: a.SearchDepth, Topic: a.Topic, TimeRange: a.TimeRange,
			Region: a.Region, IncludeDomains: a.IncludeDomains, ExcludeDomains: a.ExcludeDomains,
		}))
	},
	"web.fetch": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.WebFetch(ctx, executa.WebFetchRequest{URL: a.URL, URLs: a.URLs, Format: a.Format, MaxChars: a.MaxChars, FetchTimeoutMS: a.FetchTimeoutMs}))
	},
	"sample": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return sampledOf(host.Sample(ctx, a.sampleRequest()))
	},
	"agent.complete": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return sampledOf(host.AgentComplete(ctx, a.sampleRequest()))
	},
	"agent.create": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		s, err := host.AgentCreate(ctx, executa.AgentSessionOptions{
			Kind: a.Kind, Submode: a.Submode, FixedClientID: a.FixedClientID, Label: a.Label, QuotaCaps: a.QuotaCaps,
			SystemPrompt: a.SystemPrompt, TTLSeconds: a.TTLSeconds, InheritHostTools: a.InheritHostTools, GrantedTools: a.GrantedTools,
		})
		if err != nil {
			return nil, err
		}
		return object{"uuid": s.UUID}, nil
	},
	"agent.run": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		run, err := host.AgentSession(a.UUID).Run(ctx, a.Content, executa.AgentRunOptions{Attachments: a.Attachments, RecursionLimit: a.RecursionLimit, RunID: a.RunID, SystemPrompt: a.SystemPrompt})
		if err != nil {
			return nil, err
		}
		events := []string{}
		for _, f := range run.Frames {
			events = append(events, f.Event)
		}
		return object{"run_id": run.RunID, "text": run.Text, "warnings": run.Warnings, "events": events}, nil
	},
	"agent.cancel": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.AgentSession(a.UUID).Cancel(ctx, a.RunID))
	},
	"agent.history": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.AgentSession(a.UUID).History(ctx))
	},
	"agent.refresh": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.AgentSession(a.UUID).Refresh(ctx, a.TTLSeconds))
	},
	"agent.delete": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.AgentSession(a.UUID).Delete(ctx))
	},
	"agent.list": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.AgentList(ctx, a.IncludeExpired, a.Limit))
	},
	"embeddings.create": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		var input []string
		var one string
		if json.Unmarshal(a.Input, &one) == nil {
			input = []string{one} // the page's "a single string is wrapped", which in Go is the caller's job
		} else if err := json.Unmarshal(a.Input, &input); err != nil {
			// Go's []string cannot hold what is not a string, so no call of Embed can carry it:
			// the mapping answers what the helper answers in TypeScript and Python.
			return nil, &executa.HostError{Code: executa.CodeEmbeddingsInvalidRequest, CodeName: "INVALID_REQUEST", Method: "embeddings/create",
				Message: "INVALID_REQUEST: service (Go test tool): args.input is not a list of strings, which the Go helper's []string cannot hold"}
		}
		e, err := host.Embed(ctx, input, a.Model)
		if err != nil {
			return nil, err
		}
		return object{"vectors": e.Vectors}, nil
	},
	"image.generate": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.ImageGenerate(ctx, executa.ImageRequest{Prompt: a.Prompt, N: a.N, Size: a.imageSize(), ReferenceImageURLs: a.ReferenceImageURLs, ModelPreferences: a.ModelPreferences, Metadata: a.Metadata}))
	},
	"image.edit": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.ImageEdit(ctx, executa.ImageEditRequest{ImageURL: a.ImageURL, Prompt: a.Prompt, MaskURL: a.MaskURL, N: a.N, Size: a.imageSize(), ModelPreferences: a.ModelPreferences, Metadata: a.Metadata}))
	},
	"upload": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.Upload(ctx, a.bytes(), executa.UploadOptions{Filename: a.Filename, MimeType: a.MimeType, Purpose: a.Purpose, Metadata: a.Metadata}))
	},
	"files.upload": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.FilesUpload(ctx, a.Path, a.bytes(), executa.FilesOptions{Scope: a.Scope, ContentType: a.ContentType, Metadata: a.Metadata}))
	},
	"files.downloadUrl": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return result(host.FilesDownloadURL(ctx, a.Path, executa.FilesOptions{Scope: a.Scope, ExpiresIn: a.ExpiresIn}))
	},
	"files.list": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.FilesList(ctx, executa.FilesOptions{Scope: a.Scope, Prefix: a.Prefix, Cursor: a.Cursor, Limit: a.Limit}))
	},
	"files.delete": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.FilesDelete(ctx, a.Path, executa.FilesOptions{Scope: a.Scope}))
	},
	"storage.get": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.StorageGet(ctx, a.Key, executa.StorageOptions{Scope: a.Scope}))
	},
	"storage.set": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.StorageSet(ctx, a.Key, a.Value, executa.StorageOptions{Scope: a.Scope, IfMatch: a.IfMatch, TTLSeconds: a.TTLSeconds}))
	},
	"storage.delete": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.StorageDelete(ctx, a.Key, executa.StorageOptions{Scope: a.Scope, IfMatch: a.IfMatch}))
	},
	"storage.list": func(ctx context.Context, host *executa.HostClient, a *serviceArgs) (any, error) {
		return hostResult(host.StorageList(ctx, executa.StorageOptions{Scope: a.Scope, Prefix: a.Prefix, Cursor: a.Cursor, Limit: a.Limit, Kind: a.Kind}))
	},
}

// keepSchemaOrder passes a response format's schema on as it came (a map would sort its members).
func keepSchemaOrder(a *serviceArgs, raw json.RawMessage) {
	var given struct {
		ResponseFormat struct {
			JSONSchema struct {
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		} `json:"responseFormat"`
	}
	_ = json.Unmarshal(raw, &given)
	if f := a.ResponseFormat; f != nil && f.JSONSchema != nil && given.ResponseFormat.JSONSchema.Schema != nil {
		f.JSONSchema.Schema = given.ResponseFormat.JSONSchema.Schema
	}
}

type serviceError struct {
	Code      int    `json:"code"`
	CodeName  string `json:"code_name"`
	ErrorCode string `json:"error_code,omitempty"`
	Message   string `json:"message"`
}

// kept is the invocation progress.keep kept, for progress.late to report progress on after its
// invoke was answered.
var kept *executa.Invocation

// progressCalls report progress on the invocation (a non-object data reaches Progress as nil,
// the nearest a Go caller can come to it).
var progressCalls = map[string]func(inv *executa.Invocation, a *serviceArgs) (any, error){
	"progress": func(inv *executa.Invocation, a *serviceArgs) (any, error) {
		data, _ := a.Data.(map[string]any)
		kind := a.Type
		if kind == "" {
			kind = "progress"
		}
		if err := inv.ProgressAs(kind, data); err != nil {
			return nil, err
		}
		return object{"sent": true}, nil
	},
	"progress.keep": func(inv *executa.Invocation, _ *serviceArgs) (any, error) {
		kept = inv
		return object{"kept": true}, nil
	},
	"progress.late": func(_ *executa.Invocation, _ *serviceArgs) (any, error) {
		if err := kept.Progress(map[string]any{"late": true}); err != nil {
			return nil, err
		}
		return object{"sent": true}, nil
	},
}

// service calls the typed host-service helper named by call: {result}, or {error: {code,
// code_name, message}} for a HostError (or the display helper's plain error, code 0).
func service(ctx context.Context, args struct {
	Call string          `json:"call"`
	Args json.RawMessage `json:"args"`
}) (object, error) {
	var a serviceArgs
	if len(args.Args) > 0 {
		if err := json.Unmarshal(args.Args, &a); err != nil {
			return nil, executa.ToolErrorf("service: args do not fit the Go helpers' options: %v", err)
		}
		keepSchemaOrder(&a, args.Args)
	}
	if call, ok := progressCalls[args.Call]; ok {
		r, err := call(executa.FromContext(ctx), &a)
		if err != nil {
			return object{"error": serviceError{Code: 0, CodeName: "ProgressError", Message: err.Error()}}, nil
		}
		return object{"result": r}, nil
	}
	if args.Call == "display" {
		data, err := executa.WithDisplay(a.Data, a.Display)
		if err != nil {
			return object{"error": serviceError{Code: 0, CodeName: "TypeError", Message: err.Error()}}, nil
		}
		return object{"result": data}, nil
	}
	helper, ok := serviceCalls[args.Call]
	if !ok {
		return nil, executa.ToolErrorf("service: no helper named %q", args.Call)
	}
	if a.TimeoutMs > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(a.TimeoutMs)*time.Millisecond)
		defer cancel()
	}
	r, err := helper(ctx, executa.FromContext(ctx).Host, &a)
	var webErr *executa.WebError
	var hostErr *executa.HostError
	if errors.As(err, &webErr) {
		return object{"error": serviceError{webErr.Code, webErr.CodeName, webErr.ErrorCode, webErr.Message}}, nil
	}
	if errors.As(err, &hostErr) {
		return object{"error": serviceError{Code: hostErr.Code, CodeName: hostErr.CodeName, Message: hostErr.Message}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("service %s: %w", args.Call, err)
	}
	return object{"result": r}, nil
}
