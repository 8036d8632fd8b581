package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"arena/core"
	"arena/worker/objects"
)

// errNoObjectStore answers the recording routes of a deployment without
// object storage.
var errNoObjectStore = core.Errorf(core.CodeStorageUnavailable, "no object store is configured")

// objectStore returns the configured object store.
func (s *Server) objectStore() (core.ObjectStore, error) {
	if s.cfg.Objects == nil {
		return nil, errNoObjectStore
	}
	return s.cfg.Objects, nil
}

// requestOrigin is the scheme and host the request came to: where the
// service's own object route is reached on this arena.
func requestOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" || r.URL.Scheme == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// uploadTarget is the upload object of init answers (spec 2.5).
type uploadTarget struct {
	URL   string `json:"url"`
	Local bool   `json:"local"`
}

// uploadURL returns where the client PUTs key's object: a presigned URL
// of the store, or the service's own signed route (local).
func (s *Server) uploadURL(ctx context.Context, r *http.Request, key string) (uploadTarget, error) {
	store, err := s.objectStore()
	if err != nil {
		return uploadTarget{}, err
	}
	if p, ok := store.(core.ObjectPresigner); ok {
		u, err := p.PresignPut(ctx, key, core.ReplayContentType, core.UploadURLTTL)
		return uploadTarget{URL: u}, err
	}
	signer := objects.RouteSigner{Key: s.cfg.ObjectRouteKey}
	u := signer.URL(requestOrigin(r), http.MethodPut, key, core.ReplayContentType, s.now().Add(core.UploadURLTTL))
	return uploadTarget{URL: u, Local: true}, nil
}

// fetchURL returns a short-lived signed GET of key.
func (s *Server) fetchURL(ctx context.Context, r *http.Request, key string) (string, error) {
	store, err := s.objectStore()
	if err != nil {
		return "", err
	}
	if p, ok := store.(core.ObjectPresigner); ok {
		return p.PresignGet(ctx, key, core.FetchURLTTL)
	}
	signer := objects.RouteSigner{Key: s.cfg.ObjectRouteKey}
	return signer.URL(requestOrigin(r), http.MethodGet, key, "", s.now().Add(core.FetchURLTTL)), nil
}

// routeObject checks a request to the object route: the store writes its
// objects itself (else 404), the key is this arena's, and the signature
// holds for the method and the request's Content-Type.
func (s *Server) routeObject(r *http.Request, t *Tenant, contentType string) (string, core.ObjectWriter, error) {
	writer, ok := s.cfg.Objects.(core.ObjectWriter)
	key := r.PathValue("key")
	if !ok || s.cfg.Objects == nil || !strings.HasPrefix(key, t.Arena.Slug+"/") || !objects.ValidKey(key) {
		return "", nil, core.Errorf(core.CodeNotFound, "no object route here")
	}
	signer := objects.RouteSigner{Key: s.cfg.ObjectRouteKey}
	if err := signer.Check(r.Method, key, contentType, r.URL.Query(), s.now()); err != nil {
		return "", nil, err
	}
	return key, writer, nil
}

// uploadReadTime is how long one upload may take to arrive: 16 MB over a
// slow connection, longer than the server's default read timeout.
const uploadReadTime = 15 * time.Minute

// handleObjectPut takes one upload to the service's signed route
// (upload.local): Content-Type application/gzip as signed, streamed into
// the store, never held in memory; over the 16 MB ceiling it is refused
// (413) and nothing is kept. Once the recording or segment was finalized,
// 409 recording_finalized (what finalize checked is a copy, served for
// good; until then the URL takes a retried upload). Answers 204.
func (s *Server) handleObjectPut(w http.ResponseWriter, r *http.Request, t *Tenant) {
	key, writer, err := s.routeObject(r, t, r.Header.Get("Content-Type"))
	if err == nil {
		err = t.CheckUpload(r.Context(), key)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	// A network deadline, so wall time: the service clock may be moved in dev mode.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(uploadReadTime))
	if r.ContentLength > core.MaxRecordingBytes {
		writeError(w, r, core.Errorf(core.CodeRecordingTooLarge, "%d bytes is over the ceiling", r.ContentLength))
		return
	}
	if _, err := writer.Write(r.Context(), key, core.ReplayContentType, r.Body, core.MaxRecordingBytes); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = core.Errorf(core.CodeInvalidJSON, "the upload broke off")
		}
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleObjectGet serves an object through the service's signed route.
func (s *Server) handleObjectGet(w http.ResponseWriter, r *http.Request, t *Tenant) {
	key, _, err := s.routeObject(r, t, "")
	if err != nil {
		writeError(w, r, err)
		return
	}
	info, err := s.cfg.Objects.Stat(r.Context(), key)
	if err == nil && !info.Found {
		err = core.Errorf(core.CodeNotFound, "no object %s", key)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	body, err := s.cfg.Objects.Read(r.Context(), key, 0, info.Size)
	if err != nil {
		writeError(w, r, err)
		return
	}
	defer body.Close()
	h := w.Header()
	h.Set("Content-Type", core.ReplayContentType)
	h.Set("Content-Length", strconv.FormatInt(info.Size, 10))
	h.Set("Cache-Control", "private, max-age=300")
	w.WriteHeader(http.StatusOK)
	_, _ = io.Copy(w, body)
}
