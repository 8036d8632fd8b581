package hrana

// The JSON structures of Hrana over HTTP, version 2 (POST /v2/pipeline):
// a pipeline of stream requests on one stream, named by a baton. Only
// what this driver sends and reads is declared; unknown fields in answers
// are ignored, as the protocol asks.

// pipelineRequest is the body of POST /v2/pipeline. A nil Baton opens a
// new stream.
type pipelineRequest struct {
	Baton    *string         `json:"baton"`
	Requests []streamRequest `json:"requests"`
}

// streamRequest is one request of a pipeline: "execute" (Stmt), "batch"
// (Batch) or "close".
type streamRequest struct {
	Type  string `json:"type"`
	Stmt  *stmt  `json:"stmt,omitempty"`
	Batch *batch `json:"batch,omitempty"`
}

// stmt is one SQL statement with its arguments.
type stmt struct {
	SQL       string     `json:"sql"`
	Args      []value    `json:"args,omitempty"`
	NamedArgs []namedArg `json:"named_args,omitempty"`
	WantRows  bool       `json:"want_rows"`
}

type namedArg struct {
	Name  string `json:"name"`
	Value value  `json:"value"`
}

// batch is a list of statements run in order on the stream, each when its
// condition holds.
type batch struct {
	Steps []batchStep `json:"steps"`
}

type batchStep struct {
	Condition *condition `json:"condition,omitempty"`
	Stmt      stmt       `json:"stmt"`
}

// condition is a batch step's condition: "ok" or "error" of an earlier
// step (Step), "not" (Cond), "and" / "or" (Conds).
type condition struct {
	Type  string      `json:"type"`
	Step  *int        `json:"step,omitempty"`
	Cond  *condition  `json:"cond,omitempty"`
	Conds []condition `json:"conds,omitempty"`
}

func stepOK(i int) condition { return condition{Type: "ok", Step: &i} }

func not(c condition) condition { return condition{Type: "not", Cond: &c} }

func and(cs ...condition) condition { return condition{Type: "and", Conds: cs} }

// pipelineResponse is the answer to a pipeline: one result per request,
// and the baton of the stream (nil once the server closed it).
type pipelineResponse struct {
	Baton   *string        `json:"baton"`
	BaseURL *string        `json:"base_url"`
	Results []streamResult `json:"results"`
}

// streamResult is one request's outcome: Type "ok" with Response, or
// "error" with Error.
type streamResult struct {
	Type     string          `json:"type"`
	Response *streamResponse `json:"response"`
	Error    *Error          `json:"error"`
}

type streamResponse struct {
	Type   string `json:"type"`
	Result result `json:"result"`
}

// result holds an execute's statement result or a batch's step results
// (the field names of the two never collide).
type result struct {
	stmtResult
	StepResults []*stmtResult `json:"step_results"`
	StepErrors  []*Error      `json:"step_errors"`
}

type stmtResult struct {
	Cols             []column  `json:"cols"`
	Rows             [][]value `json:"rows"`
	AffectedRowCount int64     `json:"affected_row_count"`
	LastInsertRowid  *string   `json:"last_insert_rowid"`
}

type column struct {
	Name     *string `json:"name"`
	Decltype *string `json:"decltype"`
}

// value is one SQLite value: Type "null", "integer" (Value a decimal
// string), "float" (Value a JSON number), "text" (Value a string) or
// "blob" (Base64, unpadded).
type value struct {
	Type   string  `json:"type"`
	Value  any     `json:"value,omitempty"`
	Base64 *string `json:"base64,omitempty"`
}

// serverError is the body of an HTTP error a server may send as JSON.
type serverError struct {
	Message string `json:"message"`
	Code    string `json:"code"`
	Error   string `json:"error"` // some proxies' wording
}
