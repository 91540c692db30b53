// Package recognition reads a travel document from a photo or scan of it:
// it finds the machine-readable zone in the picture, reads it with Tesseract
// and parses it with pkg/mrz, whose check digits correct what the OCR
// misread.
//
// The API, kept stable for the portal and the API handler:
//
//	r := recognition.New(recognition.Config{})   // zero values: the defaults
//	doc, err := r.Recognize(ctx, imageBytes)      // *Document or an error below
//
// Document holds the spec's recognition output fields (type,
// travel_document, surname, given_names, nationality, birthday, gender) plus
// expiry, issuing_country, a confidence from 0 to 1 and the fields it is
// unsure of (uncertain, omitted when none). Errors, tested with
// errors.Is: ErrType (not a JPEG or PNG, judged from the bytes), ErrTooLarge
// (over MaxBytes or MaxPixels), ErrUnreadable (no zone could be read),
// ErrBusy (too many recognitions waiting), ErrEngine (Tesseract missing or
// failing: ours, not the caller's).
//
// The pipeline: decode (after checking the declared size against
// MaxPixels); grey; shrink to a working size; Bradley local threshold
// (follows uneven light); keep the character-sized connected components;
// estimate the tilt from projection profiles over ±12° and turn the picture
// level; find rows of evenly spaced characters (the zone's OCR-B is
// monospaced, the print around it is not) and group the lowest ones into a
// zone (when none is readable, all this again at the working size: the
// document may be a small part of a scanned A4 page); cut it out and scale
// it to ~36-pixel characters. Nothing assumes a photo's noise or a
// margin around the zone: a sharp scan on pure white, a black-and-white
// scan and a picture of the zone alone are read the same way. It is then read
// cell by cell (cells.go): fillers are told by their chevron shape and
// wiped, `tesseract` (on stdin, PGM, no temporary file; MRZ alphabet as
// whitelist) reads the rest with character boxes that put each character in
// its cell; a corrected parse is checked against a second reading at
// another size. Block and line readings follow only when that fails. The
// text is parsed by pkg/mrz. The letters-and-digits fields (document number,
// optional data) are then checked against the shapes of their cells
// (glyphs.go, review.go): look-alikes (G/6, O/0/D/Q, B/8, S/5, I/1, Z/2)
// are compared with OCR-B glyphs rendered from the installed font, a shape
// that clearly fits better replaces Tesseract's reading when the check
// digits still hold, and a field a check digit had to correct, or whose
// characters Tesseract or the shapes were unsure of, is named in
// Document.Uncertain with the confidence lowered. The letters-only fields
// (names, country codes), which no check digit guards, are checked against
// their shapes as well (reviewLetters): a letter that clearly has another's
// shape makes its field uncertain (confidence at most 0.75), so a misread
// name is not passed off as sure. Pictures are held in memory only for the
// call.
package recognition

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // the accepted formats
	_ "image/png"
	"io"
	"math/bits"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/invopop/jsonschema"

	"github.com/voyage/voyage/pkg/mrz"
)

// Limits (spec §9: a recognition image is at most 10 MB). MaxPixels bounds
// the decoded size, so a small file that claims a huge picture (a
// decompression bomb) is refused before it is decoded.
const (
	MaxBytes  = 10 << 20
	MaxPixels = 40_000_000
)

// Errors a caller tells apart with errors.Is.
var (
	ErrType     = errors.New("recognition: not a JPEG or PNG image")
	ErrTooLarge = errors.New("recognition: image too large")
	// ErrTooManyPixels: the file is small enough but the picture it
	// declares is over MaxPixels; it also matches ErrTooLarge.
	ErrTooManyPixels = fmt.Errorf("%w: too many pixels", ErrTooLarge)
	ErrUnreadable    = errors.New("recognition: no machine-readable zone could be read")
	ErrBusy          = errors.New("recognition: too many recognitions running")
	ErrEngine        = errors.New("recognition: OCR engine failed")
	// ErrTimeout: the work ran past Config.Timeout; it also matches
	// ErrUnreadable, as a picture that takes that long is not one we read.
	ErrTimeout = fmt.Errorf("%w: timed out", ErrUnreadable)
)

// Document is what a travel document's machine-readable zone says, read
// from a photo or scan of it. Dates are yyyy-mm-dd; Gender is "male",
// "female" or "" (unspecified, or a document that does not carry it); Type
// is a booking-flow document code: passport, chinese-passport, idcard or
// eep (Exit-Entry Permit for Hong Kong and Macao).
type Document struct {
	// Type is the kind of document, as the passenger form's documentType
	// takes it: passport, chinese-passport (a passport issued by China),
	// idcard (an identity card with a machine-readable zone) or eep
	// (Exit-Entry Permit for Hong Kong and Macao).
	Type string `json:"type"`
	// TravelDocument is the document's number as printed in the zone.
	TravelDocument string `json:"travel_document"`
	// Surname is the holder's surname in capital Latin letters, as the
	// zone spells it (parts separated by spaces).
	Surname string `json:"surname"`
	// GivenNames are the holder's given names in capital Latin letters,
	// separated by spaces; empty when the document has none.
	GivenNames string `json:"given_names"`
	// Nationality is the holder's nationality as the zone writes it: a
	// three-letter ICAO code, which is the ISO 3166-1 alpha-3 code for a
	// country (CHN), or a code such as D (Germany) or XXA (stateless). The
	// passenger form takes the alpha-2 code.
	Nationality string `json:"nationality"`
	// Birthday is the holder's date of birth, yyyy-mm-dd.
	Birthday string `json:"birthday"`
	// Gender is male or female; empty when the document leaves it
	// unspecified or does not carry it.
	Gender string `json:"gender"`
	// Expiry is the document's expiry date, yyyy-mm-dd (also read when the
	// document has expired).
	Expiry string `json:"expiry"`
	// IssuingCountry is the issuing state's three-letter ICAO code, like
	// Nationality (CHN for an Exit-Entry Permit).
	IssuingCountry string `json:"issuing_country"`
	// Confidence is how sure the reading is, from 0.1 to 1: 1 when nothing
	// had to be corrected, a little lower for each correction, at most 0.75
	// when a field is uncertain (0.6 when that field is the document
	// number).
	Confidence float64 `json:"confidence"`
	// Uncertain names the fields (by their JSON keys) the reading is not
	// sure of: a check digit had to correct them, or a character's reading
	// is in doubt. Confidence is then low too. Absent when every field is
	// sure.
	Uncertain Fields `json:"uncertain,omitempty"`
}

// Fields is a list of field names, kept as one comma-separated string so
// that Document stays comparable with ==; in JSON it is an array.
type Fields string

// List is the names.
func (f Fields) List() []string {
	if f == "" {
		return nil
	}
	return strings.Split(string(f), ",")
}

// Has says whether name is in the list.
func (f Fields) Has(name string) bool { return slices.Contains(f.List(), name) }

// MarshalJSON writes the names as an array.
func (f Fields) MarshalJSON() ([]byte, error) {
	l := f.List()
	if l == nil {
		l = []string{}
	}
	return json.Marshal(l)
}

// UnmarshalJSON reads an array of names.
func (f *Fields) UnmarshalJSON(b []byte) error {
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	*f = Fields(strings.Join(l, ","))
	return nil
}

// JSONSchema describes Fields in the OpenAPI document as the array it is.
func (Fields) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"},
		Description: "the fields the reading is unsure of (travel_document ...); absent when it is sure of all"}
}

// Config tunes a Recognizer; zero values take the defaults.
type Config struct {
	// Tesseract is the binary, "tesseract" on the PATH by default.
	Tesseract string
	// Timeout bounds one recognition, 20 s by default.
	Timeout time.Duration
	// Parallel is how many recognitions run at once (each runs one
	// Tesseract process at a time), 2 by default.
	Parallel int
	// Queue is how long a call waits for its turn before ErrBusy, 10 s by
	// default.
	Queue time.Duration
	// Now resolves two-digit years (time.Now by default).
	Now func() time.Time
}

// Recognizer reads documents; it is safe for concurrent use.
type Recognizer struct {
	cfg   Config
	slots chan struct{}
}

// New returns a Recognizer with cfg's settings.
func New(cfg Config) *Recognizer {
	if cfg.Tesseract == "" {
		cfg.Tesseract = "tesseract"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 20 * time.Second
	}
	if cfg.Parallel <= 0 {
		cfg.Parallel = 2
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 10 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Recognizer{cfg: cfg, slots: make(chan struct{}, cfg.Parallel)}
}

// Sniff checks data's size and type from its bytes (never a file name) and
// returns the content type: ErrTooLarge over MaxBytes, ErrType when it is
// not a JPEG or PNG.
func Sniff(data []byte) (string, error) {
	if len(data) > MaxBytes {
		return "", ErrTooLarge
	}
	ct := http.DetectContentType(data)
	if ct != "image/jpeg" && ct != "image/png" {
		return "", ErrType
	}
	return ct, nil
}

// Recognize reads the document in the picture data (JPEG or PNG).
func (r *Recognizer) Recognize(ctx context.Context, data []byte) (*Document, error) {
	return r.RecognizeFrom(ctx, bytes.NewReader(data))
}

// RecognizeFrom reads the document in the picture src holds (JPEG or PNG),
// a file an upload was streamed to: only its size, type and dimensions
// are read before its turn comes (at most Parallel at once), so the
// uploads waiting for one hold no picture in memory (fifty 9.7 MB uploads
// at once once held 0.7–1.5 GB).
func (r *Recognizer) RecognizeFrom(ctx context.Context, src io.ReadSeeker) (*Document, error) {
	size, err := src.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	if size > MaxBytes {
		return nil, ErrTooLarge
	}
	head := make([]byte, 512)
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	n, err := io.ReadFull(src, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	if _, err := Sniff(head[:n]); err != nil {
		return nil, err
	}
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	cfg, _, err := image.DecodeConfig(bufio.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > MaxPixels {
		return nil, fmt.Errorf("%w: %d×%d", ErrTooManyPixels, cfg.Width, cfg.Height)
	}
	wait, cancel := context.WithTimeout(ctx, r.cfg.Queue)
	select {
	case r.slots <- struct{}{}:
		cancel()
	case <-wait.Done():
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, ErrBusy
	}
	defer func() { <-r.slots }()

	ctx, cancel = context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	img, _, err := image.Decode(bufio.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	res, cells, err := r.read(ctx, img)
	if err != nil {
		return nil, err
	}
	res, uncertain := r.review(res, cells)
	return &Document{Uncertain: Fields(strings.Join(uncertain, ",")), Type: res.Type, TravelDocument: res.TravelDocument, Surname: res.Surname, GivenNames: res.GivenNames,
		Nationality: res.Nationality, Birthday: res.Birthday, Gender: res.Gender, Expiry: res.Expiry,
		IssuingCountry: res.IssuingCountry, Confidence: res.Confidence}, nil
}

// Working sizes: the full picture is kept at most fullSide pixels on its
// longer side (a zone line there is still ~1000 px); the zone is looked for
// at most findSide; characters go to Tesseract about charHeight tall.
const (
	fullSide   = 2400
	findSide   = 1200
	charHeight = 36
	maxZones   = 3
)

// read finds and reads the zone in img.
//
// The zone is looked for at most findSide pixels wide first, and, when
// nothing readable is found there, at the working size: on a whole A4 page
// (a flatbed scan, a rendered PDF page) the document is small, and its
// characters, shrunk to findSide, are too few pixels tall to be found.
func (r *Recognizer) read(ctx context.Context, img image.Image) (*mrz.Result, cellText, error) {
	full := toRaster(img, fullSide)
	f := 1
	for max(full.w, full.h)/f > findSide {
		f++
	}
	var lastErr error
	for _, f := range []int{f, 1} {
		res, cells, err := r.readAt(ctx, full, f)
		if err == nil || errors.Is(err, ErrEngine) || errors.Is(err, ErrTimeout) {
			return res, cells, err
		}
		lastErr = err
		if f == 1 {
			break
		}
	}
	return nil, cellText{}, lastErr
}

// readAt finds and reads the zone in full, looking for it at full shrunk
// by f.
func (r *Recognizer) readAt(ctx context.Context, full *raster, f int) (*mrz.Result, cellText, error) {
	small := full.shrink(f)
	rad := max(8, max(small.w, small.h)/50)
	angle := skew(glyphMask(small.binarize(rad, 15)))
	if err := ctx.Err(); err != nil {
		return nil, cellText{}, fmt.Errorf("%w: %w", ErrTimeout, err)
	}
	small = small.rotate(angle)
	full = full.rotate(angle)
	groups := zones(zoneLines(glyphMask(small.binarize(rad, 15))))
	if len(groups) > maxZones {
		groups = groups[:maxZones]
	}
	sx, sy := float64(full.w)/float64(small.w), float64(full.h)/float64(small.h)
	var best *mrz.Result
	var bestCells cellText
	var lastErr error
	for _, g := range groups {
		b := bounds(g)
		// Clipped to the picture: the bands below are measured from the
		// cut's top, which a zone at the picture's edge (a picture of the
		// zone alone) would otherwise put above the picture.
		rect := image.Rect(int(float64(b.Min.X)*sx), int(float64(b.Min.Y)*sy), int(float64(b.Max.X)*sx)+1, int(float64(b.Max.Y)*sy)+1).
			Intersect(image.Rect(0, 0, full.w, full.h))
		scale := charHeight / (float64(g[0].height()) * sy)
		res, cells, err := r.readZone(ctx, full, rect, g, sy, scale)
		if err != nil {
			if errors.Is(err, ErrEngine) || errors.Is(err, ErrTimeout) {
				return nil, cellText{}, err
			}
			lastErr = err
			continue
		}
		if best == nil || res.Confidence > best.Confidence {
			best, bestCells = res, cells
		}
		if best.Confidence >= goodEnough {
			break
		}
	}
	if best != nil {
		return best, bestCells, nil
	}
	if lastErr != nil {
		return nil, cellText{}, fmt.Errorf("%w: %w", ErrUnreadable, lastErr)
	}
	return nil, cellText{}, fmt.Errorf("%w: no zone found", ErrUnreadable)
}

// goodEnough is the confidence at which no further reading is tried: at
// most a few changes, each confirmed by a check digit.
const goodEnough = 0.9

// readZone reads the zone at rect of the levelled picture.
//
// The cell reading (cells.go) comes first; a parse without a single
// correction is taken at once. Otherwise a second cell reading at another
// size follows, alone and merged with the first (the surer character of
// each cell): a check digit passes a wrong correction one time in ten, two
// readings seldom err alike. When the readings that parse do not all agree,
// the thresholded cut as one block, the grey cut and each line alone are
// read too (each also mixed line by line with the cell reading, whose
// fillers are the surest), and the answer most readings give wins, the more
// confident on a tie.
//
// It also answers the cell reading the result can be checked against.
func (r *Recognizer) readZone(ctx context.Context, full *raster, rect image.Rectangle, g []line, sy, scale float64) (*mrz.Result, cellText, error) {
	cut := full.crop(rect, scale)
	bin := cut.binarize(charHeight, 12)
	var votes []*mrz.Result
	var lastErr error
	parse := func(text string) *mrz.Result {
		res, err := mrz.ParseAt(text, r.cfg.Now())
		if err != nil {
			lastErr = err
			return nil
		}
		votes = append(votes, res)
		return res
	}
	bands := make([][2]int, len(g))
	for i, l := range g {
		y := func(v float64) int { return int((v*sy - float64(rect.Min.Y)) * scale) }
		m := float64(l.height()) * 0.35
		bands[i] = [2]int{y(float64(l.top) - m), y(float64(l.bottom) + m)}
	}
	first, err := r.readByCells(ctx, bin, bands, charHeight)
	if err != nil {
		return nil, cellText{}, err
	}
	cells := first
	if len(first.text) > 0 {
		if res := parse(first.String()); res != nil && len(res.Corrections) == 0 {
			return res, first, nil
		}
		const k = 0.8
		cut2 := full.crop(rect, scale*k)
		bands2 := make([][2]int, len(bands))
		for i, b := range bands {
			bands2[i] = [2]int{int(float64(b[0]) * k), int(float64(b[1]) * k)}
		}
		second, err := r.readByCells(ctx, cut2.binarize(charHeight*4/5, 12), bands2, charHeight*k)
		if err != nil {
			return nil, cellText{}, err
		}
		parse(second.String())
		if merged, ok := first.merge(second); ok {
			parse(merged.String())
			cells = merged
		}
		if res := r.fillGaps(cells.String()); res != nil {
			votes = append(votes, res)
		}
		if w, n := vote(votes); w != nil && n == len(votes) && n >= 2 {
			return w, cells, nil
		}
	}
	readings := []func() (string, error){
		func() (string, error) { return r.ocr(ctx, bin.pad(charHeight/2), psmBlock) },
		func() (string, error) { return r.ocr(ctx, cut.pad(charHeight/2), psmBlock) },
		func() (string, error) { return r.readLines(ctx, bin, bands) },
	}
	for _, read := range readings {
		text, err := read()
		if err != nil {
			return nil, cellText{}, err
		}
		for _, mixed := range mixes(zoneText(cells.String()), zoneText(text)) {
			if parse(mixed) != nil {
				break
			}
		}
	}
	if w, _ := vote(votes); w != nil {
		return w, cells, nil
	}
	return nil, cellText{}, lastErr
}

// maxGaps bounds the unread characters fillGaps tries every character for.
const maxGaps = 2

// fillGaps tries every character of the zone alphabet in the places of a
// cell reading where nothing was read ('?'), and answers the parse when
// exactly one answer comes out: a lost check digit is so recomputed, a
// lost data character kept only when the check digits allow no other.
func (r *Recognizer) fillGaps(text string) *mrz.Result {
	var at []int
	for i := range len(text) {
		if text[i] == '?' {
			at = append(at, i)
		}
	}
	if len(at) == 0 || len(at) > maxGaps {
		return nil
	}
	b := []byte(text)
	var found *mrz.Result
	answers := map[recognition]bool{}
	var walk func(k int)
	walk = func(k int) {
		if k == len(at) {
			if res, err := mrz.ParseAt(string(b), r.cfg.Now()); err == nil {
				answers[key(res)] = true
				if found == nil || res.Confidence > found.Confidence {
					found = res
				}
			}
			return
		}
		for _, c := range []byte(mrzAlphabet) {
			b[at[k]] = c
			walk(k + 1)
		}
	}
	walk(0)
	if len(answers) != 1 {
		return nil
	}
	return found
}

// vote is the answer most results give (the most confident of them on a
// tie) and how many give it.
func vote(rs []*mrz.Result) (*mrz.Result, int) {
	count := map[recognition]int{}
	for _, r := range rs {
		count[key(r)]++
	}
	var best *mrz.Result
	n := 0
	for _, r := range rs {
		c := count[key(r)]
		if best == nil || c > n || (c == n && r.Confidence > best.Confidence) {
			best, n = r, c
		}
	}
	return best, n
}

// recognition is what a result says, to compare results by.
type recognition [9]string

func key(r *mrz.Result) recognition {
	return recognition{r.Type, r.TravelDocument, r.Surname, r.GivenNames, r.Nationality, r.Birthday, r.Gender, r.Expiry, r.IssuingCountry}
}

// readLines reads each line of the zone on its own: Tesseract sometimes
// merges or splits the lines of a block; a line cut on its own cannot be.
func (r *Recognizer) readLines(ctx context.Context, bin *raster, bands [][2]int) (string, error) {
	var lines []string
	for _, b := range bands {
		top, bottom := max(0, b[0]), min(bin.h, b[1])
		if bottom <= top {
			continue
		}
		one := &raster{w: bin.w, h: bottom - top, pix: bin.pix[top*bin.w : bottom*bin.w]}
		text, err := r.ocr(ctx, one.pad(charHeight/2), psmLine)
		if err != nil {
			return "", err
		}
		lines = append(lines, strings.TrimSpace(text))
	}
	return strings.Join(lines, "\n"), nil
}

// zoneText keeps the lines of OCR text long enough to be zone lines.
func zoneText(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); len(l) >= 20 {
			out = append(out, l)
		}
	}
	return out
}

// mixes is other on its own, then, when it has as many lines as cells,
// every mix of the two taking a line from one or the other, the mixes with
// most lines from cells first.
func mixes(cells, other []string) []string {
	out := []string{strings.Join(other, "\n")}
	n := len(cells)
	if n == 0 || n != len(other) || n > 4 {
		return out
	}
	var masks []int
	for m := 1; m < 1<<n-1; m++ {
		masks = append(masks, m)
	}
	slices.SortStableFunc(masks, func(a, b int) int { return bits.OnesCount(uint(a)) - bits.OnesCount(uint(b)) })
	for _, m := range masks {
		mixed := make([]string, n)
		for i := range n {
			mixed[i] = cells[i]
			if m&(1<<i) != 0 {
				mixed[i] = other[i]
			}
		}
		out = append(out, strings.Join(mixed, "\n"))
	}
	return out
}
