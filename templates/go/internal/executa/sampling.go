package executa

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// SamplingMessage is one message of a sampling request or result.
type SamplingMessage struct {
	Role    string          `json:"role"` // "user", "assistant" or "system"
	Content SamplingContent `json:"content"`
}

// SamplingContent is a message's content; only text is supported.
type SamplingContent struct {
	Type string `json:"type"` // "text"
	Text string `json:"text"`
}

// ModelPreferences steer the host's choice of model; leave it nil for the user's preferred model.
type ModelPreferences struct {
	Hints                []ModelHint `json:"hints,omitempty"`
	CostPriority         *float64    `json:"costPriority,omitempty"`
	SpeedPriority        *float64    `json:"speedPriority,omitempty"`
	IntelligencePriority *float64    `json:"intelligencePriority,omitempty"`
}

// ModelHint names a model the host should prefer (matched case-insensitively by substring).
type ModelHint struct {
	Name string `json:"name"`
}

// ResponseFormat asks for JSON: Type "json_object" (any JSON object), or "json_schema" with
// JSONSchema (an object that satisfies the schema).
type ResponseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *JSONSchema `json:"json_schema,omitempty"`
}

// JSONSchema is a json_schema response format. The host refuses a Name that does not match
// ^[a-zA-Z0-9_-]{1,64}$ and a Schema over 32,768 bytes (compact JSON), nesting subschemas
// deeper than 8 levels or holding more than 512 of them; the runtime checks before sending.
type JSONSchema struct {
	Name string `json:"name"`
	// Strict is true when nil.
	Strict *bool `json:"strict,omitempty"`
	// Schema is the JSON Schema: a map[string]any, a json.RawMessage, or anything that encodes
	// as a JSON object.
	Schema any `json:"schema"`
}

// SampleRequest is a sampling/createMessage request. Give Messages, or Prompt for a single
// user message.
type SampleRequest struct {
	Messages []SamplingMessage `json:"messages"`
	Prompt   string            `json:"-"`
	// MaxTokens is the longest answer, in tokens (the host caps it at 8192); 0 means 1024.
	MaxTokens        int               `json:"maxTokens"`
	SystemPrompt     string            `json:"systemPrompt,omitempty"`
	Temperature      *float64          `json:"temperature,omitempty"`
	StopSequences    []string          `json:"stopSequences,omitempty"`
	ModelPreferences *ModelPreferences `json:"modelPreferences,omitempty"`
	Metadata         map[string]any    `json:"metadata,omitempty"`
	ResponseFormat   *ResponseFormat   `json:"responseFormat,omitempty"`
	// OnUnsupported is what the host does when the model cannot honour ResponseFormat:
	// "error" (the host's default: -32010 UNSUPPORTED_RESPONSE_FORMAT), or downgrade to
	// "json_object" or "text".
	OnUnsupported string `json:"onUnsupported,omitempty"`
}

// SampleResult is the host's completion, and what the runtime reads from it.
type SampleResult struct {
	HostResult
	Role       string          `json:"role"`
	Content    SamplingContent `json:"content"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason"`
	Usage      *SampleUsage    `json:"usage,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`

	// Text is Content.Text.
	Text string `json:"text"`
	// StructuredValid: the host checked Text against the response format (_meta.responseFormat).
	StructuredValid bool `json:"structuredValid"`
	// Downgraded: the host fell back to a weaker format, as OnUnsupported allowed.
	Downgraded bool `json:"downgraded"`
	// Parsed is Text as JSON, when a response format was asked for and StructuredValid is true.
	Parsed json.RawMessage `json:"parsed,omitempty"`
}

// SampleUsage counts the tokens of one sampling call.
type SampleUsage struct {
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
	TotalTokens  int `json:"totalTokens"`
}

// Decode decodes the structured answer (Parsed) into v.
func (r *SampleResult) Decode(v any) error {
	if r.Parsed == nil {
		return errors.New("the completion has no structured value: no response format was asked for, or the host did not find the text valid for it (StructuredValid is false)")
	}
	return json.Unmarshal(r.Parsed, v)
}

// Sample asks the host's language model for a completion (sampling/createMessage). It needs
// "llm.sample" in host_capabilities and a host that negotiated protocol 2.0; otherwise it
// fails with a HostError NOT_NEGOTIATED (-32008) without sending anything.
func (h *HostClient) Sample(ctx context.Context, req SampleRequest) (*SampleResult, error) {
	return h.sample(ctx, "sampling/createMessage", req)
}

// AgentComplete is a one-shot completion of the host's agent (agent/complete): a
// SampleRequest without ResponseFormat and OnUnsupported. It needs "llm.sample".
func (h *HostClient) AgentComplete(ctx context.Context, req SampleRequest) (*SampleResult, error) {
	if req.ResponseFormat != nil || req.OnUnsupported != "" {
		return nil, h.invalid("agent/complete", "agent/complete takes no responseFormat or onUnsupported; use Sample for structured output")
	}
	return h.sample(ctx, "agent/complete", req)
}

func (h *HostClient) sample(ctx context.Context, method string, req SampleRequest) (*SampleResult, error) {
	if req.Messages == nil {
		req.Messages = []SamplingMessage{{Role: "user", Content: SamplingContent{Type: "text", Text: req.Prompt}}}
	}
	if req.MaxTokens == 0 {
		req.MaxTokens = 1024
	}
	if req.ResponseFormat != nil {
		format, err := h.checkedFormat(method, *req.ResponseFormat)
		if err != nil {
			return nil, err
		}
		req.ResponseFormat = format
	}
	raw, err := h.Request(ctx, method, req)
	if err == nil {
		err = h.object(method, raw)
	}
	if err == nil && len(raw) > 0 && !hasString(raw, "content", "text") {
		err = h.malformed(method, "has no content.text string")
	}
	var result SampleResult
	if err == nil {
		err = h.decode(method, raw, &result)
	}
	if err != nil {
		return nil, err
	}
	if result.Content.Type == "" {
		result.Content.Type = "text"
	}
	result.Text = result.Content.Text
	var meta struct {
		ResponseFormat struct {
			StructuredValid bool `json:"structuredValid"`
			Downgraded      bool `json:"downgraded"`
		} `json:"responseFormat"`
	}
	_ = json.Unmarshal(result.Meta, &meta) // absent or malformed: both false
	result.StructuredValid = meta.ResponseFormat.StructuredValid
	result.Downgraded = meta.ResponseFormat.Downgraded
	if req.ResponseFormat != nil && result.StructuredValid && json.Valid([]byte(result.Text)) {
		var compact bytes.Buffer
		_ = json.Compact(&compact, []byte(result.Text))
		result.Parsed = compact.Bytes()
	}
	return &result, nil
}

// checkedFormat is the response format as sent (strict filled in, the schema encoded), or
// the namespace's INVALID_REQUEST when it breaks one of the host's limits.
func (h *HostClient) checkedFormat(method string, f ResponseFormat) (*ResponseFormat, error) {
	if f.Type != "json_schema" {
		return &f, nil
	}
	js := f.JSONSchema
	if js == nil {
		return nil, h.invalid(method, "responseFormat.json_schema must be an object {name, strict, schema}")
	}
	if !schemaNamePattern.MatchString(js.Name) {
		return nil, h.invalid(method, fmt.Sprintf("responseFormat.json_schema.name must match %s (1 to 64 letters, digits, _ or -), got %s", schemaNamePattern, jsonQuote(js.Name)))
	}
	schema, err := json.Marshal(js.Schema)
	if err != nil {
		return nil, h.invalid(method, "responseFormat.json_schema.schema cannot be encoded as JSON: "+err.Error())
	}
	if jsonType(schema) != "object" {
		return nil, h.invalid(method, "responseFormat.json_schema.schema must be a JSON Schema object")
	}
	size, err := schemaSize(schema)
	if err != nil {
		return nil, h.invalid(method, "responseFormat.json_schema.schema is not JSON: "+err.Error())
	}
	switch {
	case size.bytes > schemaMaxBytes:
		return nil, h.invalid(method, fmt.Sprintf("the schema is %d bytes serialised; the host accepts at most %d", size.bytes, schemaMaxBytes))
	case size.depth > schemaMaxDepth:
		return nil, h.invalid(method, fmt.Sprintf("the schema nests subschemas deeper than %d levels, the host's limit", schemaMaxDepth))
	case size.nodes > schemaMaxNodes:
		return nil, h.invalid(method, fmt.Sprintf("the schema has more than %d subschemas, the host's limit", schemaMaxNodes))
	}
	strict := js.Strict == nil || *js.Strict
	return &ResponseFormat{Type: f.Type, JSONSchema: &JSONSchema{Name: js.Name, Strict: &strict, Schema: json.RawMessage(schema)}}, nil
}

// jsonQuote is s as a JSON string, as JavaScript's JSON.stringify writes it (for messages).
func jsonQuote(s string) string {
	var b bytes.Buffer
	jsQuote(&b, s)
	return b.String()
}
