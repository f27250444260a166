package executa

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// defaultTimeoutSeconds is a tool's timeout when the manifest gives none.
const defaultTimeoutSeconds = 60

// manifest is what the runtime needs from manifest.json; describe answers with the file itself.
type manifest struct {
	describe           []byte // manifest.json, compacted, key order kept
	serverName         string
	version            string
	tools              []*tool
	byName             map[string]*tool
	toolNames          []string
	hostCapabilities   map[string]bool
	clientCapabilities map[string]map[string]any
}

type tool struct {
	Name       string      `json:"name"`
	Timeout    *float64    `json:"timeout"`
	Parameters []parameter `json:"parameters"`
}

type parameter struct {
	Name      string                 `json:"name"`
	Type      string                 `json:"type"`
	Required  *bool                  `json:"required"`
	Default   json.RawMessage        `json:"default"`
	Enum      []json.RawMessage      `json:"enum"`
	Items     *struct{ Type string } `json:"items"`
	ItemsType string                 `json:"items_type"`

	key       []byte // the name as a JSON string, for building the arguments object
	enumText  string // "a, b" for the error message
	enumValue []any  // the enum, decoded, for comparing
}

func (p *parameter) required() bool { return p.Required == nil || *p.Required }

func (p *parameter) itemType() string {
	if p.Items != nil && p.Items.Type != "" {
		return p.Items.Type
	}
	if p.ItemsType != "" {
		return p.ItemsType
	}
	return "string"
}

// capabilityKeys maps manifest host_capabilities to initialize client_capabilities:
// create-executa's protocol/capabilities.ts (the platform's allow-list).
var capabilityKeys = map[string]struct {
	key   string
	value map[string]any
}{
	"aps.files":            {"storage", map[string]any{"files": true}},
	"aps.kv":               {"storage", map[string]any{"kv": true}},
	"aps.scope.admin":      {"storage", map[string]any{"kv": true, "files": true}},
	"aps.scope.app.read":   {"storage", map[string]any{"kv": true}},
	"aps.scope.app.write":  {"storage", map[string]any{"kv": true}},
	"aps.scope.tool.read":  {"storage", map[string]any{"kv": true}},
	"aps.scope.tool.write": {"storage", map[string]any{"kv": true}},
	"aps.scope.user.read":  {"storage", map[string]any{"kv": true}},
	"aps.scope.user.write": {"storage", map[string]any{"kv": true}},
	"host.upload":          {"upload", map[string]any{}},
	"llm.agent.auto":       {"agent", map[string]any{"submodes": []string{"auto"}}},
	"llm.agent.fixed":      {"agent", map[string]any{"submodes": []string{"fixed"}}},
	"llm.embed":            {"embeddings", map[string]any{}},
	"llm.image":            {"image", map[string]any{}},
	"llm.image.edit":       {"image.edit", map[string]any{}},
	"llm.sample":           {"sampling", map[string]any{}},
	"web.fetch":            {"web", map[string]any{"fetch": true}},
	"web.search":           {"web", map[string]any{"search": true}},
}

// mergeValue joins two lists (each item once, in order) and otherwise keeps the later value.
func mergeValue(before, v any) any {
	was, ok1 := before.([]string)
	add, ok2 := v.([]string)
	if !ok1 || !ok2 {
		return v
	}
	out := append([]string(nil), was...)
	for _, s := range add {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func parseManifest(data []byte) (*manifest, error) {
	var raw struct {
		Name             string   `json:"name"`
		DisplayName      string   `json:"display_name"`
		Version          string   `json:"version"`
		Tools            []*tool  `json:"tools"`
		HostCapabilities []string `json:"host_capabilities"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("manifest.json: %w", err)
	}
	if raw.Name == "" {
		return nil, errors.New("manifest.json: no \"name\"")
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, data); err != nil {
		return nil, fmt.Errorf("manifest.json: %w", err)
	}
	m := &manifest{
		describe:           compact.Bytes(),
		serverName:         raw.Name,
		version:            raw.Version,
		tools:              raw.Tools,
		byName:             make(map[string]*tool, len(raw.Tools)),
		hostCapabilities:   make(map[string]bool),
		clientCapabilities: make(map[string]map[string]any),
	}
	if raw.DisplayName != "" {
		m.serverName = raw.DisplayName
	}
	for _, t := range raw.Tools {
		if t == nil || t.Name == "" {
			return nil, errors.New("manifest.json: a tool without a \"name\"")
		}
		m.byName[t.Name] = t
		m.toolNames = append(m.toolNames, t.Name)
		for i := range t.Parameters {
			if err := t.Parameters[i].prepare(); err != nil {
				return nil, fmt.Errorf("manifest.json: tool %q: %w", t.Name, err)
			}
		}
	}
	for _, c := range raw.HostCapabilities {
		m.hostCapabilities[c] = true
		if k, ok := capabilityKeys[c]; ok {
			merged := m.clientCapabilities[k.key]
			if merged == nil {
				merged = map[string]any{}
				m.clientCapabilities[k.key] = merged
			}
			for name, v := range k.value {
				merged[name] = mergeValue(merged[name], v)
			}
		}
	}
	return m, nil
}

func (p *parameter) prepare() error {
	key, err := json.Marshal(p.Name)
	if err != nil {
		return err
	}
	p.key = key
	if string(p.Default) == "null" {
		p.Default = nil
	}
	if p.Default != nil {
		var compact bytes.Buffer
		if err := json.Compact(&compact, p.Default); err != nil {
			return err
		}
		p.Default = compact.Bytes()
	}
	var text bytes.Buffer
	for i, e := range p.Enum {
		var v any
		if err := json.Unmarshal(e, &v); err != nil {
			return err
		}
		p.enumValue = append(p.enumValue, v)
		if i > 0 {
			text.WriteString(", ")
		}
		if s, ok := v.(string); ok {
			text.WriteString(s)
		} else {
			_ = json.Compact(&text, e)
		}
	}
	p.enumText = text.String()
	return nil
}

// timeoutSeconds is the tool's timeout, 60 s when the manifest gives none.
func (t *tool) timeoutSeconds() float64 {
	if t.Timeout == nil || *t.Timeout <= 0 {
		return defaultTimeoutSeconds
	}
	return *t.Timeout
}
