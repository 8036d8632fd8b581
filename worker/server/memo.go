package server

import "strconv"

// Memo returns what build makes for key on the tenant's arena, kept in
// memory while the arena's data and settings stay unchanged: natively,
// where this process is its databases' only writer (Config.SoleWriter),
// a page's expensive part is built once per write. Elsewhere (the edge)
// build runs every time. The value is shared between requests: it must
// not be changed after build returns.
func (s *Server) Memo(t *Tenant, key string, build func() (any, error)) (any, error) {
	if s.memo == nil {
		return build()
	}
	key = t.Arena.Slug + "/" + strconv.FormatInt(t.Arena.UpdatedAt.UnixMilli(), 36) + "/" + key
	version := publicVersion{data: t.Store.DB().Version(), directory: s.cfg.Directory.Version()}
	if v, ok := s.memo.get(key, version); ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return nil, err
	}
	s.memo.put(key, version, v)
	return v, nil
}

// memos keeps Memo's values, each with the data version it was built at.
type memos = versionedCache[publicVersion, any]

// maxMemoEntries bounds the cache.
const maxMemoEntries = 1024
