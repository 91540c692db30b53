package recognition

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"time"
)

// mrzAlphabet is every character a machine-readable zone may hold.
const mrzAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<"

// Page segmentation modes (tesseract --help-psm).
const (
	psmBlock = 6  // a uniform block of text: the whole zone
	psmLine  = 7  // one line: a zone line on its own
	psmChar  = 10 // one character
)

// ocr runs the tesseract binary on a PGM picture given on stdin and returns
// what it read. The picture never touches the disk. Tesseract's dictionaries
// are switched off (a zone is no English) and its threads limited to one:
// on small pictures OpenMP's threads cost more than they give, and the
// caller already bounds how many recognitions run at once.
func (r *Recognizer) ocr(ctx context.Context, img *raster, psm int) (string, error) {
	return r.tesseract(ctx, img, psm)
}

// tesseract is ocr with extra config files (such as "tsv") after the
// options.
func (r *Recognizer) tesseract(ctx context.Context, img *raster, psm int, configs ...string) (string, error) {
	args := append([]string{"stdin", "stdout",
		"-l", "eng", "--psm", strconv.Itoa(psm), "--oem", "1",
		"-c", "tessedit_char_whitelist=" + mrzAlphabet,
		"-c", "load_system_dawg=0", "-c", "load_freq_dawg=0"}, configs...)
	cmd := exec.CommandContext(ctx, r.cfg.Tesseract, args...)
	cmd.Env = append(cmd.Environ(), "OMP_THREAD_LIMIT=1")
	cmd.Stdin = bytes.NewReader(img.pgm())
	var out, stderr bytes.Buffer
	cmd.Stdout = &limitedWriter{w: &out, n: 64 << 10}
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4 << 10}
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("%w: %w", ErrTimeout, ctx.Err())
		}
		var notFound *exec.Error
		if errors.As(err, &notFound) {
			return "", fmt.Errorf("%w: %w", ErrEngine, err)
		}
		return "", fmt.Errorf("%w: tesseract: %w: %s", ErrEngine, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out.String(), nil
}

// limitedWriter keeps the first n bytes and drops the rest, so a runaway
// process cannot fill memory.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n <= 0 {
		return len(p), nil
	}
	k := min(len(p), l.n)
	l.n -= k
	if _, err := l.w.Write(p[:k]); err != nil {
		return 0, err
	}
	return len(p), nil
}
