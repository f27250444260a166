package executa

import (
	"context"
	"encoding/json"
	"sort"
)

// Embeddings is an embeddings/create result.
type Embeddings struct {
	HostResult
	Object string           `json:"object"`
	Model  string           `json:"model"`
	Data   []Embedding      `json:"data"`
	Usage  *EmbeddingsUsage `json:"usage,omitempty"`
	Meta   json.RawMessage  `json:"_meta,omitempty"`
	// Vectors are the embeddings in input order (by Index).
	Vectors [][]float64 `json:"vectors"`
}

// Embedding is the embedding of the input at Index.
type Embedding struct {
	Object    string    `json:"object"`
	Index     int       `json:"index"`
	Embedding []float64 `json:"embedding"`
}

// EmbeddingsUsage counts the tokens of one embeddings call.
type EmbeddingsUsage struct {
	PromptTokens int `json:"prompt_tokens"`
	TotalTokens  int `json:"total_tokens"`
}

// Embed embeds each string of input (embeddings/create); model "" is the host's default
// alias ("anna-managed-v1"). It needs "llm.embed" in host_capabilities.
func (h *HostClient) Embed(ctx context.Context, input []string, model string) (*Embeddings, error) {
	const method = "embeddings/create"
	if len(input) == 0 {
		return nil, h.invalid(method, "input must be a string or a non-empty list of strings")
	}
	params := struct {
		Input []string `json:"input"`
		Model string   `json:"model,omitempty"`
	}{input, model}
	var result Embeddings
	if err := h.call(ctx, method, params, &result); err != nil {
		return nil, err
	}
	byIndex := append([]Embedding(nil), result.Data...)
	sort.SliceStable(byIndex, func(i, j int) bool { return byIndex[i].Index < byIndex[j].Index })
	result.Vectors = make([][]float64, len(byIndex))
	for i, e := range byIndex {
		result.Vectors[i] = e.Embedding
	}
	if result.Data == nil {
		result.Data = []Embedding{}
	}
	return &result, nil
}

// ImageRequest is an image/generate request.
type ImageRequest struct {
	Prompt string `json:"prompt"`
	// N is how many images; 0 means 1.
	N int `json:"n"`
	// Size is "WIDTHxHEIGHT", e.g. "1024x1024"; "" is the host's default.
	Size               string            `json:"size,omitempty"`
	ReferenceImageURLs []string          `json:"reference_image_urls,omitempty"`
	ModelPreferences   *ModelPreferences `json:"modelPreferences,omitempty"`
	Metadata           map[string]any    `json:"metadata,omitempty"`
}

// ImageEditRequest is an image/edit request. MaskURL is a one-channel PNG of the image's size,
// white where the image is edited.
type ImageEditRequest struct {
	ImageURL         string            `json:"image_url"`
	Prompt           string            `json:"prompt"`
	MaskURL          string            `json:"mask_url,omitempty"`
	N                int               `json:"n"` // 0 means 1
	Size             string            `json:"size,omitempty"`
	ModelPreferences *ModelPreferences `json:"modelPreferences,omitempty"`
	Metadata         map[string]any    `json:"metadata,omitempty"`
}

// ImageResult is an image/generate or image/edit result.
type ImageResult struct {
	HostResult
	Images    []Image         `json:"images"`
	Model     string          `json:"model"`
	QuotaUsed json.RawMessage `json:"quota_used,omitempty"` // {images_today, images_quota}, as the host counts
	Meta      json.RawMessage `json:"_meta,omitempty"`
}

// Image is one image the host made, at a URL it serves.
type Image struct {
	URL      string `json:"url"`
	MimeType string `json:"mimeType"`
	Width    int    `json:"width,omitempty"`
	Height   int    `json:"height,omitempty"`
}

// ImageGenerate makes images from a prompt (image/generate). It needs "llm.image".
func (h *HostClient) ImageGenerate(ctx context.Context, req ImageRequest) (*ImageResult, error) {
	if req.N == 0 {
		req.N = 1
	}
	return h.image(ctx, "image/generate", req)
}

// ImageEdit edits an image (image/edit). It needs "llm.image.edit".
func (h *HostClient) ImageEdit(ctx context.Context, req ImageEditRequest) (*ImageResult, error) {
	if req.N == 0 {
		req.N = 1
	}
	return h.image(ctx, "image/edit", req)
}

func (h *HostClient) image(ctx context.Context, method string, req any) (*ImageResult, error) {
	var result ImageResult
	if err := h.call(ctx, method, req, &result); err != nil {
		return nil, err
	}
	return &result, nil
}
