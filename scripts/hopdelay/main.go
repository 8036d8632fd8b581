// Command hopdelay puts a distance between two processes on one machine:
// a TCP proxy that holds every chunk of bytes, each way, for a one-way
// delay before passing it on, in order. `make bench-distance` puts it
// between the edge's two Workers under wrangler dev (the front near the
// player, Go beside the database: docs/edge.md "Two Workers"), where
// placement is not simulated.
//
//	hopdelay -listen 127.0.0.1:P -to 127.0.0.1:Q -control 127.0.0.1:C [-delay 50ms]
//
// The delay can be changed while it runs: POST /delay?d=50ms on the
// control address (GET /delay prints it), so a benchmark pays the
// distance only on the requests it measures.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to accept connections on")
	to := flag.String("to", "", "address to forward them to")
	control := flag.String("control", "", "address of the control API (POST /delay?d=DURATION)")
	initial := flag.Duration("delay", 0, "one-way delay at start")
	flag.Parse()
	if *to == "" {
		log.Fatal("hopdelay: -to is required")
	}
	var delay atomic.Int64
	delay.Store(int64(*initial))
	if *control != "" {
		mux := http.NewServeMux()
		mux.HandleFunc("/delay", func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				d, err := time.ParseDuration(r.URL.Query().Get("d"))
				if err != nil || d < 0 {
					http.Error(w, "d: a duration of 0 or more", http.StatusUnprocessableEntity)
					return
				}
				delay.Store(int64(d))
			}
			fmt.Fprintln(w, time.Duration(delay.Load()))
		})
		go func() { log.Fatal(http.ListenAndServe(*control, mux)) }()
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("hopdelay: %s -> %s", ln.Addr(), *to)
	for {
		c, err := ln.Accept()
		if err != nil {
			log.Fatal(err)
		}
		go func() {
			u, err := net.Dial("tcp", *to)
			if err != nil {
				log.Printf("hopdelay: %v", err)
				c.Close()
				return
			}
			done := make(chan struct{})
			go func() { pipe(u, c, &delay); close(done) }()
			pipe(c, u, &delay)
			<-done
			c.Close()
			u.Close()
		}()
	}
}

// chunk is bytes read at a moment.
type chunk struct {
	at   time.Time
	data []byte
}

// pipe copies from src to dst, each chunk written once the delay since it
// was read has passed, then closes dst's writing half at src's end.
func pipe(dst, src net.Conn, delay *atomic.Int64) {
	chunks := make(chan chunk, 1024)
	go func() {
		defer close(chunks)
		buf := make([]byte, 64<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				chunks <- chunk{at: time.Now(), data: append([]byte(nil), buf[:n]...)}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range chunks {
		time.Sleep(time.Until(c.at.Add(time.Duration(delay.Load()))))
		if _, err := dst.Write(c.data); err != nil {
			break
		}
	}
	for range chunks { // drain: the reader ends when src closes
	}
	if tc, ok := dst.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
}
