//go:build !js

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"arena/core"
	"arena/worker/objects"
)

// objectStore is where recordings live natively: an S3-compatible bucket
// when ARENA_S3_ENDPOINT is set (with ARENA_S3_BUCKET,
// ARENA_S3_ACCESS_KEY_ID, ARENA_S3_SECRET_ACCESS_KEY and optionally
// ARENA_S3_REGION; R2, S3, MinIO), else the directory objects/ in the
// data directory, uploaded to through the service's signed route.
func objectStore(dataDir string) (core.ObjectStore, error) {
	endpoint := os.Getenv("ARENA_S3_ENDPOINT")
	if endpoint == "" {
		local := objects.Local{Dir: filepath.Join(dataDir, "objects")}
		// Uploads a crash cut off left temporary files; an hour is longer
		// than any upload URL lives.
		if _, err := local.RemoveStaleUploads(time.Now().Add(-time.Hour)); err != nil {
			return nil, err
		}
		return local, nil
	}
	s3 := &objects.S3{
		Endpoint: endpoint, Bucket: os.Getenv("ARENA_S3_BUCKET"), Region: os.Getenv("ARENA_S3_REGION"),
		AccessKeyID: os.Getenv("ARENA_S3_ACCESS_KEY_ID"), SecretAccessKey: os.Getenv("ARENA_S3_SECRET_ACCESS_KEY"),
	}
	if s3.Bucket == "" || s3.AccessKeyID == "" || s3.SecretAccessKey == "" {
		return nil, fmt.Errorf("ARENA_S3_ENDPOINT is set: ARENA_S3_BUCKET, ARENA_S3_ACCESS_KEY_ID and ARENA_S3_SECRET_ACCESS_KEY are required too")
	}
	return s3, nil
}
