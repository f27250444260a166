package executa

import (
	"context"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

const (
	agentSystemPromptMaxChars = 4000
	agentListMaxLimit         = 100
)

// AgentSessionOptions are the options of agent/session.create; the zero value is an "auto"
// session with the host's defaults.
type AgentSessionOptions struct {
	Kind          string         `json:"kind"`                    // "agent" (the default)
	Submode       string         `json:"agent_submode,omitempty"` // "auto" or "fixed"
	FixedClientID string         `json:"fixed_client_id,omitempty"`
	Label         string         `json:"label,omitempty"`
	QuotaCaps     map[string]any `json:"quota_caps,omitempty"`
	// SystemPrompt is at most 4,000 characters (the host keeps its own safety floor under it).
	SystemPrompt     string   `json:"system_prompt,omitempty"`
	TTLSeconds       int      `json:"ttl_seconds,omitempty"` // the idle window; the host's default is 600
	InheritHostTools *bool    `json:"inherit_host_tools,omitempty"`
	GrantedTools     []string `json:"granted_tools,omitempty"` // nil or empty: no tools, the run is text-only
}

// AgentRunOptions are the options of one run of a session.
type AgentRunOptions struct {
	Attachments    []map[string]any `json:"attachments,omitempty"`
	RecursionLimit int              `json:"recursion_limit,omitempty"`
	RunID          string           `json:"run_id,omitempty"`
	// SystemPrompt replaces the session's system prompt for this turn only.
	SystemPrompt string `json:"systemPrompt,omitempty"`
}

// AgentLifecycle is a session's lifecycle, as agent/session.refresh answers it.
type AgentLifecycle struct {
	HostResult
	AppSessionUUID   string  `json:"app_session_uuid"`
	ExpiresIn        int     `json:"expires_in"`
	Kind             string  `json:"kind"`
	AgentSubmode     string  `json:"agent_submode"`
	FixedClientID    *string `json:"fixed_client_id"`
	ExpiresAt        string  `json:"expires_at"` // the idle window's end, never past MaxLifetimeAt
	MaxLifetimeAt    string  `json:"max_lifetime_at"`
	IdleTTLSeconds   int     `json:"idle_ttl_seconds"`
	SessionExpiresIn int     `json:"session_expires_in"`
}

// AgentSessionInfo is what agent/session.create answers.
type AgentSessionInfo struct {
	HostResult // what create answered (Refresh updates AgentLifecycle only)
	AgentLifecycle
	GrantedTools     []string `json:"granted_tools"`
	InheritHostTools bool     `json:"inherit_host_tools"`
	ThreadID         string   `json:"thread_id"`
	SystemPrompt     *string  `json:"system_prompt"`
}

// AgentSessionSummary is one session of agent/session.list.
type AgentSessionSummary struct {
	AppSessionUUID string  `json:"app_session_uuid"`
	Kind           string  `json:"kind"`
	Submode        string  `json:"submode"`
	FixedClientID  *string `json:"fixed_client_id"`
	Label          *string `json:"label"`
	CreatedAt      string  `json:"created_at"`
	LastActiveAt   string  `json:"last_active_at"`
	ExpiresAt      string  `json:"expires_at"`
	MaxLifetimeAt  string  `json:"max_lifetime_at"`
	IdleTTLSeconds int     `json:"idle_ttl_seconds"`
}

// AgentSessionList is an agent/session.list result.
type AgentSessionList struct {
	HostResult
	Sessions []AgentSessionSummary `json:"sessions"`
}

// AgentFrame is one frame of a run: "run_meta" first, then "token" / "delta" / "message"
// (with Text), "tool_call", "tool_result", "final" and "complete". Raw holds the whole frame.
type AgentFrame struct {
	Event    string
	Text     *string
	Warnings []AgentWarning // run_meta only
	Raw      json.RawMessage
}

// UnmarshalJSON reads an object frame, keeping the whole of it in Raw; members of an
// unexpected type read as absent.
func (f *AgentFrame) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*f = AgentFrame{Raw: append(json.RawMessage(nil), b...)}
	_ = json.Unmarshal(m["event"], &f.Event)
	if jsonType(m["text"]) == "string" {
		f.Text = new(string)
		_ = json.Unmarshal(m["text"], f.Text)
	}
	for _, w := range objectsIn(m["warnings"]) {
		var warning AgentWarning
		_ = json.Unmarshal(w, &warning)
		f.Warnings = append(f.Warnings, warning)
	}
	return nil
}

// MarshalJSON writes the frame as the host sent it.
func (f AgentFrame) MarshalJSON() ([]byte, error) {
	if f.Raw == nil {
		return []byte("null"), nil
	}
	return f.Raw, nil
}

// objectsIn returns the items of a JSON array that are objects.
func objectsIn(raw json.RawMessage) []json.RawMessage {
	var items []json.RawMessage
	if jsonType(raw) == "array" {
		_ = json.Unmarshal(raw, &items)
	}
	objects := items[:0]
	for _, item := range items {
		if jsonType(item) == "object" {
			objects = append(objects, item)
		}
	}
	return objects
}

// AgentWarning is a warning of a run, such as NO_TOOLS_AVAILABLE.
type AgentWarning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// AgentRun is a finished (buffered) run of a session.
type AgentRun struct {
	HostResult
	RunID    string       `json:"run_id"`
	StreamID string       `json:"stream_id"`
	Frames   []AgentFrame `json:"frames"`
	// Final is the host's final frame (else the last "final" of Frames), nil when there is none.
	Final *AgentFrame `json:"final"`
	// Meta is the run_meta frame, nil when the host sent none.
	Meta *AgentFrame `json:"meta,omitempty"`
	// Warnings are Meta's warnings; each was also written to the tool's log.
	Warnings []AgentWarning `json:"warnings"`
	// Text is the final frame's text, else the token / delta / message texts joined.
	Text string `json:"text"`
}

// AgentCancelled is an agent/session.cancel result.
type AgentCancelled struct {
	HostResult
	Cancelled bool   `json:"cancelled"`
	RunID     string `json:"run_id"`
}

// AgentHistory is an agent/session.history result.
type AgentHistory struct {
	HostResult
	Messages []AgentMessage `json:"messages"`
}

// AgentMessage is one message of a session's history.
type AgentMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// Deleted is the result of a delete (agent session, storage key, file).
type Deleted struct {
	HostResult
	Deleted bool `json:"deleted"`
}

// AgentSession is an agent session of the host. Get one with AgentCreate, or AgentSession
// for one created earlier.
type AgentSession struct {
	// UUID is the session's app_session_uuid.
	UUID string
	// Info is what agent/session.create answered, its lifecycle updated by Refresh; only the
	// UUID for a session from AgentSession.
	Info AgentSessionInfo

	host *HostClient
}

// AgentCreate creates an agent session (agent/session.create). It needs "llm.agent.auto" in
// host_capabilities.
func (h *HostClient) AgentCreate(ctx context.Context, opts AgentSessionOptions) (*AgentSession, error) {
	const method = "agent/session.create"
	if n := utf8.RuneCountInString(opts.SystemPrompt); n > agentSystemPromptMaxChars {
		return nil, h.invalid(method, fmt.Sprintf("system_prompt is %d characters; the host accepts at most %d", n, agentSystemPromptMaxChars))
	}
	if opts.Kind == "" {
		opts.Kind = "agent"
	}
	raw, err := h.Request(ctx, method, opts)
	if err == nil {
		err = h.object(method, raw)
	}
	if err == nil && len(raw) > 0 && !hasString(raw, "app_session_uuid") {
		err = h.malformed(method, "has no app_session_uuid string")
	}
	var info AgentSessionInfo
	if err == nil {
		err = h.decode(method, raw, &info)
	}
	if err != nil {
		return nil, err
	}
	return &AgentSession{UUID: info.AppSessionUUID, Info: info, host: h}, nil
}

// AgentSession is a session created earlier (by this invoke or another), by its uuid.
func (h *HostClient) AgentSession(uuid string) *AgentSession {
	s := &AgentSession{UUID: uuid, host: h}
	s.Info.AppSessionUUID = uuid
	return s
}

// AgentList lists the user's sessions of this plugin (agent/session.list), at most limit of
// them: 1 to 100, or 0 for the host's default (50).
func (h *HostClient) AgentList(ctx context.Context, includeExpired bool, limit int) (*AgentSessionList, error) {
	const method = "agent/session.list"
	if limit < 0 || limit > agentListMaxLimit {
		return nil, h.invalid(method, fmt.Sprintf("limit must be an integer from 1 to %d (or 0 for the host's default), got %d", agentListMaxLimit, limit))
	}
	params := struct {
		IncludeExpired bool `json:"include_expired,omitempty"`
		Limit          int  `json:"limit,omitempty"`
	}{includeExpired, limit}
	var list AgentSessionList
	if err := h.call(ctx, method, params, &list); err != nil {
		return nil, err
	}
	return &list, nil
}

type sessionParams struct {
	AppSessionUUID string `json:"app_session_uuid"`
	Content        string `json:"content,omitempty"`
	AgentRunOptions
	TTLSeconds int `json:"ttl_seconds,omitempty"`
}

func (s *AgentSession) call(ctx context.Context, name string, params any, out any) error {
	return s.host.call(ctx, "agent/session."+name, params, out)
}

// Run runs one turn of the session (agent/session.run) and returns the buffered run.
func (s *AgentSession) Run(ctx context.Context, content string, opts AgentRunOptions) (*AgentRun, error) {
	var result struct {
		RunID    string          `json:"run_id"`
		StreamID string          `json:"stream_id"`
		Frames   json.RawMessage `json:"frames"`
		Final    json.RawMessage `json:"final"`
	}
	const method = "agent/session.run"
	raw, err := s.host.Request(ctx, method, sessionParams{AppSessionUUID: s.UUID, Content: content, AgentRunOptions: opts})
	if err == nil {
		err = s.host.decode(method, raw, &result)
	}
	if err != nil {
		return nil, err
	}
	run := &AgentRun{HostResult: HostResult{raw}, RunID: result.RunID, StreamID: result.StreamID, Frames: []AgentFrame{}, Warnings: []AgentWarning{}}
	var lastFinal *AgentFrame
	texts := ""
	for _, raw := range objectsIn(result.Frames) {
		var f AgentFrame
		_ = f.UnmarshalJSON(raw)
		run.Frames = append(run.Frames, f)
	}
	for i := range run.Frames {
		f := &run.Frames[i]
		switch f.Event {
		case "run_meta":
			if run.Meta == nil {
				run.Meta = f
			}
		case "final":
			lastFinal = f
		case "token", "delta", "message":
			if f.Text != nil {
				texts += *f.Text
			}
		}
	}
	run.Final = lastFinal
	if jsonType(result.Final) == "object" {
		run.Final = &AgentFrame{}
		_ = run.Final.UnmarshalJSON(result.Final)
	}
	run.Text = texts
	if run.Final != nil && run.Final.Text != nil {
		run.Text = *run.Final.Text
	}
	if run.Meta != nil && run.Meta.Warnings != nil {
		run.Warnings = run.Meta.Warnings
	}
	for _, w := range run.Warnings {
		s.host.log("agent run %s: warning %s: %s", run.RunID, w.Code, w.Message)
	}
	return run, nil
}

// Cancel cancels a run of the session (agent/session.cancel).
func (s *AgentSession) Cancel(ctx context.Context, runID string) (*AgentCancelled, error) {
	params := struct {
		AppSessionUUID string `json:"app_session_uuid"`
		RunID          string `json:"run_id"`
	}{s.UUID, runID}
	var c AgentCancelled
	if err := s.call(ctx, "cancel", params, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// History returns the session's messages (agent/session.history).
func (s *AgentSession) History(ctx context.Context) (*AgentHistory, error) {
	var history AgentHistory
	if err := s.call(ctx, "history", sessionParams{AppSessionUUID: s.UUID}, &history); err != nil {
		return nil, err
	}
	return &history, nil
}

// Refresh slides the session's idle window (agent/session.refresh); ttlSeconds 0 is the
// host's default (600). The new lifecycle is also kept in Info.
func (s *AgentSession) Refresh(ctx context.Context, ttlSeconds int) (*AgentLifecycle, error) {
	var lifecycle AgentLifecycle
	if err := s.call(ctx, "refresh", sessionParams{AppSessionUUID: s.UUID, TTLSeconds: ttlSeconds}, &lifecycle); err != nil {
		return nil, err
	}
	s.Info.AgentLifecycle = lifecycle
	return &lifecycle, nil
}

// Delete deletes the session (agent/session.delete); deleting it twice is not an error.
func (s *AgentSession) Delete(ctx context.Context) (*Deleted, error) {
	var d Deleted
	if err := s.call(ctx, "delete", sessionParams{AppSessionUUID: s.UUID}, &d); err != nil {
		return nil, err
	}
	return &d, nil
}
