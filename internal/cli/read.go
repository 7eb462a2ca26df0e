package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/dustin/go-humanize"
	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// readOptions are `mcpeek read`'s: read one resource.
type readOptions struct {
	conn  connFlags
	out   string
	force bool
	uri   string // set by parse
}

func newReadOptions(fs *flagSet) options {
	o := &readOptions{}
	o.conn.register(fs, true)
	fs.StringVar(&o.out, "out", "", "write the resource's content to `FILE` as it is (a blob decoded, text as text) instead of printing the result; never over a file already there without --force; - writes it to standard output when that is not a terminal")
	fs.BoolVar(&o.force, "force", false, "with --out: replace a file already there")
	return o
}

func (o *readOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("read: name the resource's URI")
	}
	o.uri = rest[0]
	// Flags may also follow the URI.
	if rest, err = fs.parse(rest[1:]); err != nil {
		return err
	}
	if o.force && o.out == "" {
		return usagef("read: --force goes with --out, which it lets replace a file")
	}
	return o.conn.parseTarget(rest)
}

func (o *readOptions) run(ctx context.Context, s streams) error {
	if o.out != "" && o.out != "-" && !o.force {
		// Said before connecting; createNew checks again when it writes.
		if _, err := os.Lstat(o.out); err == nil {
			return usagef("--out: %s is already there: give --force to replace it", o.out)
		}
	}
	return o.conn.headless(ctx, s, &mcpclient.HeadlessAsker{Stderr: s.errOut}, nil, func(ctx context.Context, conn *mcpclient.Conn) error {
		res, err := conn.Read(ctx, o.uri)
		if err != nil {
			return fmt.Errorf("read %s: %w", o.uri, err)
		}
		if o.out == "" {
			return writeJSON(s.out, res)
		}
		return o.save(res, s)
	})
}

// save writes the one content of res to --out: a blob as its bytes, text
// as its text, with the run's secrets redacted from the text as from
// everything mcpeek prints; a blob that holds one is not written at all.
func (o *readOptions) save(res *mcp.ReadResourceResult, s streams) error {
	if len(res.Contents) != 1 || res.Contents[0] == nil {
		return fmt.Errorf("read %s: the server returned %d contents, and --out writes one: run without --out to see them", o.uri, len(res.Contents))
	}
	c := res.Contents[0]
	data, kind := []byte(s.secrets.Redact(c.Text)), "text"
	if c.Blob != nil {
		data, kind = c.Blob, "blob"
		if s.secrets.Redact(string(c.Blob)) != string(c.Blob) {
			return fmt.Errorf("read %s: the blob holds a secret of this run (a header or token mcpeek sent), so it is not written", o.uri)
		}
	}
	if o.out == "-" {
		// The content as it is goes to standard output, which must not be
		// a terminal: raw server bytes are never drawn on one.
		if s.isStdoutTTY() {
			return usagef("--out -: standard output is a terminal, and the content is written raw: redirect it to a file or a pipe")
		}
		_, err := s.out.Write(data)
		return err
	}
	if err := createNew(o.out, data, o.force); err != nil {
		return usagef("--out: %v", err)
	}
	if c.MIMEType != "" {
		kind += ", " + c.MIMEType
	}
	fmt.Fprintln(s.errOut, textclean.OneLine(fmt.Sprintf("mcpeek: wrote %s (%s) to %s", humanize.IBytes(uint64(len(data))), kind, o.out)))
	return nil
}

// createNew writes data to a new file at path, 0644 less the umask. It
// never writes through a symbolic link, nor into another file's content:
// O_EXCL fails on any name already there, a link to nowhere included. With
// replace, a regular file there is removed first (its other names, if
// any, keep their content); anything else there is refused.
func createNew(path string, data []byte, replace bool) error {
	if info, err := os.Lstat(path); err == nil && replace {
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file (%s): --force replaces only a file", path, safefile.Kind(info.Mode()))
		}
		if err := os.Remove(path); err != nil {
			return err
		}
	}
	err := safefile.WriteNew(path, data, 0o644)
	if errors.Is(err, fs.ErrExist) {
		if replace {
			return fmt.Errorf("%s came back while it was replaced: not written", path)
		}
		return fmt.Errorf("%s is already there: give --force to replace it", path)
	}
	return err
}
