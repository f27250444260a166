package executa

import (
	"context"
	"encoding/json"
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
}

// SampleResult is the host's sampling/createMessage result.
type SampleResult struct {
	Role       string          `json:"role"`
	Content    SamplingContent `json:"content"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason"`
	Usage      *SampleUsage    `json:"usage,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// SampleUsage counts the tokens of one sampling call.
type SampleUsage struct {
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
	TotalTokens  int `json:"totalTokens"`
}

// Sample asks the host's language model for a completion (sampling/createMessage). It needs
// "llm.sample" in host_capabilities and a host that negotiated protocol 2.0; otherwise it
// fails with a HostError NOT_NEGOTIATED (-32008) without sending anything.
func (h *HostClient) Sample(ctx context.Context, req SampleRequest) (*SampleResult, error) {
	if req.Messages == nil {
		req.Messages = []SamplingMessage{{Role: "user", Content: SamplingContent{Type: "text", Text: req.Prompt}}}
	}
	if req.MaxTokens == 0 {
		req.MaxTokens = 1024
	}
	raw, err := h.Request(ctx, "sampling/createMessage", req)
	if err != nil {
		return nil, err
	}
	var result SampleResult
	if err := json.Unmarshal(raw, &result); err != nil {
		return nil, &HostError{Code: CodeInternalError, Message: "malformed sampling result: " + err.Error(), Method: "sampling/createMessage"}
	}
	return &result, nil
}
