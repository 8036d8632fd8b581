package web_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSiteFrame(t *testing.T) {
	e := newSiteEnv(t)
	c := e.browser(t)
	status, body := e.get(t, c, "/")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, "Demo Arena")
	status, body = e.get(t, c, "/no/such/page")
	assert.Equal(t, http.StatusNotFound, status)
	assert.Contains(t, body, "There is no page here.")
	status, _ = e.get(t, c, "/static/app.css")
	assert.Equal(t, http.StatusOK, status)
	status, _ = e.get(t, c, "/api/v1/nope")
	assert.Equal(t, http.StatusNotFound, status)
}
