package mcpclient

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"
)

// TLSOptions are how mcpeek verifies URL servers and proves itself to them:
// --ca-file, --insecure, --cert and --key.
type TLSOptions struct {
	// CAFile holds PEM certificates trusted besides the system's.
	CAFile string
	// Insecure skips verifying the server's certificate.
	Insecure bool
	// CertFile and KeyFile are a PEM client certificate and its key.
	CertFile, KeyFile string
}

// IsZero reports whether the options change nothing.
func (o TLSOptions) IsZero() bool { return o == TLSOptions{} }

// Config builds the TLS configuration the options describe: nil when they
// change nothing, so that the defaults (system roots) apply.
func (o TLSOptions) Config() (*tls.Config, error) {
	if o.IsZero() {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: o.Insecure}
	if o.CAFile != "" {
		pool, err := o.Pool()
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	if (o.CertFile == "") != (o.KeyFile == "") {
		return nil, errors.New("--cert and --key go together: give both")
	}
	if o.CertFile != "" {
		pair, err := tls.LoadX509KeyPair(o.CertFile, o.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("--cert/--key: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// Pool is the system's trusted roots with the CA file's certificates added
// (the system's alone without a CA file).
func (o TLSOptions) Pool() (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if o.CAFile == "" {
		return pool, nil
	}
	pem, err := os.ReadFile(o.CAFile)
	if err != nil {
		return nil, fmt.Errorf("--ca-file: %w", err)
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--ca-file: %s holds no PEM certificate", o.CAFile)
	}
	return pool, nil
}

// HTTPTransport is the HTTP transport for URL servers and their
// authorization: the default one, with cfg as its TLS configuration when
// cfg is not nil.
func HTTPTransport(cfg *tls.Config) http.RoundTripper {
	if cfg == nil {
		return http.DefaultTransport
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = cfg.Clone()
	return t
}

// HTTPClient is an HTTP client on [HTTPTransport], for authorization
// requests.
func HTTPClient(cfg *tls.Config) *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: HTTPTransport(cfg)}
}
