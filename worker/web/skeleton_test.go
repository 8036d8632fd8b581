package web_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"arena/worker/arenatest"
)

func TestSiteFrame(t *testing.T) {
	e := arenatest.New(t, arenatest.Options{})
	c := e.Browser(t)
	shown := c.Get(t, "/")
	assert.Equal(t, http.StatusOK, shown.Status)
	assert.Contains(t, shown.Body, "Demo Arena")
	shown = c.Get(t, "/no/such/page")
	assert.Equal(t, http.StatusNotFound, shown.Status)
	assert.Contains(t, shown.Body, "There is no page here.")
	shown = c.Get(t, "/static/app.css")
	assert.Equal(t, http.StatusOK, shown.Status)
	shown = c.Get(t, "/api/v1/nope")
	assert.Equal(t, http.StatusNotFound, shown.Status)
}
