package mcpclient_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testCA issues certificates for the TLS tests.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mcpeek test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// issue returns a certificate and its key, PEM-encoded, for a server on
// 127.0.0.1 or a client.
func (ca *testCA) issue(t *testing.T, usage x509.ExtKeyUsage) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "mcpeek test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{usage}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}

func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTLSOptions: a server whose CA and client certificate check are its
// own is reached with --ca-file and --cert/--key, refused without them,
// and reached without verification with --insecure only if it asks for
// no client certificate.
func TestTLSOptions(t *testing.T) {
	ca := newTestCA(t)
	serverCert, serverKey := ca.issue(t, x509.ExtKeyUsageServerAuth)
	clientCert, clientKey := ca.issue(t, x509.ExtKeyUsageClientAuth)
	pair, err := tls.X509KeyPair(serverCert, serverKey)
	if err != nil {
		t.Fatal(err)
	}
	clients := x509.NewCertPool()
	clients.AddCert(ca.cert)
	srv := httptest.NewUnstartedServer(fixture.HTTPHandler(fixture.Options{}, false))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: clients}
	srv.StartTLS()
	defer srv.Close()

	caFile := writeTemp(t, "ca.pem", ca.pem)
	certFile, keyFile := writeTemp(t, "client.pem", clientCert), writeTemp(t, "client.key", clientKey)
	connect := func(opts mcpclient.TLSOptions) error {
		cfg, err := opts.Config()
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, err := mcpclient.Connect(ctx, mcpclient.Config{Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: srv.URL}, TLS: cfg})
		if err == nil {
			c.Close()
		}
		return err
	}
	if err := connect(mcpclient.TLSOptions{CAFile: caFile, CertFile: certFile, KeyFile: keyFile}); err != nil {
		t.Errorf("with the CA and a client certificate: %v", err)
	}
	if err := connect(mcpclient.TLSOptions{CAFile: caFile}); err == nil {
		t.Error("connected without the client certificate the server requires")
	}
	if err := connect(mcpclient.TLSOptions{CertFile: certFile, KeyFile: keyFile}); err == nil || !strings.Contains(err.Error(), "certificate signed by unknown authority") {
		t.Errorf("without the CA: %v", err)
	}
	if err := connect(mcpclient.TLSOptions{Insecure: true, CertFile: certFile, KeyFile: keyFile}); err != nil {
		t.Errorf("--insecure: %v", err)
	}
}

// TestTLSOptionsBadFiles: files that hold no certificate or key are errors
// naming the flag.
func TestTLSOptionsBadFiles(t *testing.T) {
	notPEM := writeTemp(t, "x.txt", []byte("hello"))
	for _, tc := range []struct {
		opts mcpclient.TLSOptions
		want string
	}{
		{mcpclient.TLSOptions{CAFile: notPEM}, "--ca-file: " + notPEM + " holds no PEM certificate"},
		{mcpclient.TLSOptions{CAFile: notPEM + ".absent"}, "--ca-file: open"},
		{mcpclient.TLSOptions{CertFile: notPEM}, "--cert and --key go together"},
		{mcpclient.TLSOptions{CertFile: notPEM, KeyFile: notPEM}, "--cert/--key:"},
	} {
		if _, err := tc.opts.Config(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.opts, err, tc.want)
		}
	}
	if cfg, err := (mcpclient.TLSOptions{}).Config(); cfg != nil || err != nil {
		t.Errorf("no options: %v, %v; want the defaults", cfg, err)
	}
}

// TestSSETarget: a target marked SSE is reached over the HTTP+SSE
// transport, its traffic in the wire log.
func TestSSETarget(t *testing.T) {
	server := fixture.New(fixture.Options{})
	srv := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil))
	defer srv.Close()
	wire := mcpclient.NewWireLog(0, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := mcpclient.Connect(ctx, mcpclient.Config{Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: srv.URL, SSE: true}, Wire: wire, Protocol: "legacy"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := c.List(ctx, "tools")
	if err != nil || len(got["tools"].([]*mcp.Tool)) == 0 {
		t.Errorf("tools over SSE: %v", err)
	}
	sent := false
	for _, e := range wire.Entries() {
		sent = sent || e.Method == "tools/list"
	}
	if !sent {
		t.Error("the wire log missed tools/list")
	}
}
