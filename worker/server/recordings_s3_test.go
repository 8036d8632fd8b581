package server_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arena/client"
	"arena/worker/arenatest"
	"arena/worker/objects/s3test"
)

// TestRecordingsOnS3: with an S3-compatible store (a real versitygw),
// init hands out a presigned upload URL (upload.local false), the client
// PUTs straight to the store, finalize reads it back through the adapter,
// and fetch answers a presigned GET.
func TestRecordingsOnS3(t *testing.T) {
	a := arenatest.New(t, arenatest.Options{NoSite: true, Objects: s3test.Start(t)})
	c := benchClient(t, a.URL, arenatest.Blaise)
	ctx := context.Background()
	init, err := c.InitRecording(ctx, 0, client.ScopePublic, "s3", 0)
	require.NoError(t, err)
	assert.False(t, init.Upload.Local, "a presigned URL of the store")
	file, err := client.NewReplayWriter().Finish(client.ReplayHeader{Scope: client.ScopePublic, GameBuild: "s3"})
	require.NoError(t, err)
	require.NoError(t, c.Upload(ctx, init.Upload.URL, file))
	rec, err := c.FinalizeRecording(ctx, init.RecordingID)
	require.NoError(t, err)
	assert.Equal(t, int64(len(file)), rec.ByteSize, "the true size, from the store")
	url, err := c.FetchRecording(ctx, rec.ID, "")
	require.NoError(t, err)
	got, err := c.Download(ctx, url)
	require.NoError(t, err)
	assert.Equal(t, file, got)

	// The presigned URL cannot be revoked: the store takes another PUT,
	// and nothing any fetch serves changes.
	swap := bytes.Repeat([]byte("not gzip "), 3<<17)
	require.NoError(t, c.Upload(ctx, init.Upload.URL, swap), "the store itself takes the PUT")
	url, err = c.FetchRecording(ctx, rec.ID, "")
	require.NoError(t, err)
	got, err = c.Download(ctx, url)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(file, got), "fetch serves what finalize checked: %d bytes, not %d", len(file), len(got))
	again, err := c.FinalizeRecording(ctx, rec.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(len(file)), again.ByteSize, "finalizing again reads nothing new")

	big, err := c.InitRecording(ctx, 0, client.ScopePublic, "s3", 0)
	require.NoError(t, err)
	require.NoError(t, c.Upload(ctx, big.Upload.URL, make([]byte, 16<<20+1)), "the store itself takes any size")
	_, err = c.FinalizeRecording(ctx, big.RecordingID)
	var apiErr *client.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 413, apiErr.Status)
	_, err = c.FinalizeRecording(ctx, big.RecordingID)
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "upload_missing", apiErr.Code, "the parked object was deleted")
}
