// Package stripemock starts stripe-mock (github.com/stripe/stripe-mock,
// Stripe's own OpenAPI-driven mock of its API) as a process for tests, on
// free ports. stripe-mock keeps no state: it answers every call with its
// fixture for the endpoint, echoing some parameters.
package stripemock

import (
	"bytes"
	"fmt"
	"go/build"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Binary is $STRIPE_MOCK, else stripe-mock in GOPATH/bin; "" when neither
// is there.
func Binary() string {
	if p := os.Getenv("STRIPE_MOCK"); p != "" {
		return p
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	p := filepath.Join(filepath.SplitList(gopath)[0], "bin", "stripe-mock")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// Start runs stripe-mock and answers its base URL once it answers, and
// how to stop it. Without the binary it answers "" outside CI, and an
// error under CI=true, where the tests must run.
func Start() (url string, stop func(), err error) {
	bin := Binary()
	if bin == "" {
		if os.Getenv("CI") == "true" {
			return "", nil, fmt.Errorf("stripe-mock is not installed: run `go install github.com/stripe/stripe-mock@v0.203.0` or set STRIPE_MOCK to its path")
		}
		return "", func() {}, nil
	}
	addr, err := freeAddr()
	if err != nil {
		return "", nil, err
	}
	// stripe-mock also serves HTTPS, on 12112 unless told otherwise: a
	// second free port keeps two test runs from colliding there.
	tlsAddr, err := freeAddr()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(bin, "-http-addr", addr, "-https-addr", tlsAddr)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start stripe-mock %s: %w", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop = func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	deadline := time.NewTimer(30 * time.Second)
	defer deadline.Stop()
	poll := time.NewTicker(20 * time.Millisecond)
	defer poll.Stop()
	client := &http.Client{Timeout: time.Second}
	for {
		select {
		case err := <-exited:
			return "", nil, fmt.Errorf("stripe-mock exited: %v\n%s", err, out.String())
		case <-deadline.C:
			stop()
			return "", nil, fmt.Errorf("stripe-mock on %s did not answer in 30s\n%s", addr, out.String())
		case <-poll.C:
		}
		resp, err := client.Get("http://" + addr + "/v1/balance")
		if err == nil {
			resp.Body.Close()
			return "http://" + addr, stop, nil
		}
	}
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}
