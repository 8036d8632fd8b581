package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"

	"arena/core"
)

// maxBodyBytes caps every JSON request body the service reads.
const maxBodyBytes = 1 << 20

// decodeJSON reads the request body into dst and validates it with the
// struct's validate tags. Errors are 4xx *core.Error values: invalid_json
// (400), body_too_large (413), unknown_field or invalid_field with the
// field's JSON name (422), invalid_steam_id for a malformed account id.
func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	return decodeJSONLimit(w, r, dst, maxBodyBytes)
}

// decodeJSONLimit is decodeJSON for a body of at most limit bytes.
func decodeJSONLimit(w http.ResponseWriter, r *http.Request, dst any, limit int64) error {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return jsonError(err)
	}
	if err := requireObject(raw); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return core.Errorf(core.CodeInvalidJSON, "trailing data after the JSON body")
	}
	if n, ok := dst.(normalizer); ok {
		n.normalize()
	}
	return validateStruct(dst)
}

// requireObject refuses a body that is not a JSON object (null, an
// array, a number, a string): every body the service reads is an object,
// and json.Decode would take null as an empty one.
func requireObject(raw []byte) error {
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return core.Errorf(core.CodeInvalidJSON, "the body is not a JSON object")
	}
	return nil
}

// normalizer is a request body that tidies its fields (case, spaces)
// before validation.
type normalizer interface{ normalize() }

func jsonError(err error) error {
	var tooLarge *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooLarge):
		return core.Errorf(core.CodeBodyTooLarge, "body over %d bytes", tooLarge.Limit)
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return core.FieldError(core.CodeInvalidField, typeErr.Field)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return core.FieldError(core.CodeUnknownField, field)
	}
	return core.Errorf(core.CodeInvalidJSON, "%v", err)
}

// validate is built once per process, on first use (not at package
// init: docs/edge.md "Cold start"): its struct cache makes later
// validations cheap.
var validate = sync.OnceValue(newValidator)

func newValidator() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			return ""
		}
		return name
	})
	mustRegister := func(tag string, ok func(string) bool) {
		if err := v.RegisterValidation(tag, func(fl validator.FieldLevel) bool {
			return ok(fl.Field().String())
		}); err != nil {
			panic(err)
		}
	}
	mustRegister("slug", core.ValidSlug)
	mustRegister("arenahost", core.ValidHost)
	mustRegister("appid", core.ValidAppID)
	mustRegister("platformid", core.ValidPlatformID)
	mustRegister("stepstatus", core.ValidStepTarget)
	mustRegister("dburl", validDatabaseURL)
	return v
}

// validateStruct turns the first validation failure into a 4xx error
// naming the field (a malformed platform account id is the spec's 400
// invalid_steam_id).
func validateStruct(v any) error {
	err := validate().Struct(v)
	if err == nil {
		return nil
	}
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) || len(verrs) == 0 {
		return core.Errorf(core.CodeInvalidJSON, "%v", err)
	}
	fe := verrs[0]
	field := fieldPath(fe.Namespace())
	if fe.Tag() == "platformid" {
		return core.FieldError(core.CodeInvalidSteamID, field)
	}
	return core.FieldError(core.CodeInvalidField, field)
}

// fieldPath drops the struct name from a validator namespace and the
// index of a list element: "createArenaRequest.hosts[1]" -> "hosts".
func fieldPath(ns string) string {
	if _, rest, ok := strings.Cut(ns, "."); ok {
		ns = rest
	}
	if i := strings.IndexByte(ns, '['); i >= 0 {
		ns = ns[:i]
	}
	return ns
}

func validDatabaseURL(s string) bool {
	for _, p := range []string{"libsql://", "https://", "http://", "wss://", "ws://"} {
		if strings.HasPrefix(s, p) && len(s) > len(p) {
			return true
		}
	}
	return false
}

// watchedBody is a request body that remembers whether reading it failed
// short of its end: the client went away or the read timed out. The
// connection's context is cancelled then, so whatever the handler does
// next fails too; writeError answers such a request as the malformed
// body it is (400 invalid_json), not as a server failure.
type watchedBody struct {
	io.ReadCloser
	err error
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.err == nil {
		b.err = err
	}
	return n, err
}

// watchBody wraps r's body, when it has one, in a watchedBody.
func watchBody(r *http.Request) *watchedBody {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	b := &watchedBody{ReadCloser: r.Body}
	r.Body = b
	return b
}

// decodeForTournament decodes the body into dst (decodeJSON) and reads
// the tournament of the {slug} path value, in that order (a bad body is
// refused before the database is asked). On an error it has answered and
// returns nil.
func decodeForTournament(w http.ResponseWriter, r *http.Request, t *Tenant, dst any) *core.Tournament {
	if err := decodeJSON(w, r, dst); err != nil {
		writeError(w, r, err)
		return nil
	}
	tour, err := t.Tournament(r.Context(), r.PathValue("slug"))
	if err != nil {
		writeError(w, r, err)
		return nil
	}
	return tour
}

// queryInt reads an optional decimal query parameter within lo..hi;
// absent is def.
func queryInt(raw string, def, lo, hi int64, name string) (int64, error) {
	if raw == "" {
		return def, nil
	}
	v, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, core.FieldError(core.CodeInvalidField, name)
	}
	return v, nil
}
