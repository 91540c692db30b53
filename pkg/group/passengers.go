package group

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/supplier"
)

// Limits of a passenger-list file.
const (
	// MaxListBytes is the largest file accepted (500 passengers take about
	// 40 kB); it stays under the API's default body limit of 1 MiB.
	MaxListBytes = 900 << 10
	// maxUnzipped bounds what the file may inflate to: a zip bomb stops
	// there instead of filling memory.
	maxUnzipped    = 32 << 20
	maxUnzippedXML = 16 << 20
	// MaxListErrors is how many problems of a list are answered at most;
	// one more line says how many others there are.
	MaxListErrors = 100
)

// listColumns are the template's columns, in order: the field each holds.
var listColumns = []string{"type", "surname", "givenName", "gender", "birthday", "nationality", "documentType", "documentNumber",
	"documentExpiry", "documentIssuedAt", "phone", "email"}

// RowError is one problem of an uploaded passenger list: where it is and
// what is wrong.
//
// Message holds a catalog key until ErrorData translates it.
type RowError struct {
	// Row is the spreadsheet row (1 is the header, so passengers start at
	// 2); 0 for a problem of the whole list (the passenger counts, or how
	// many more problems there are beyond those listed).
	Row int `json:"row"`
	// Column is the passenger field of the column (surname, birthday,
	// documentNumber, ...: the template's columns); empty for the line
	// that counts further problems.
	Column string `json:"column"`
	// Cell is the spreadsheet cell (e.g. C5); absent for a problem of the
	// whole list.
	Cell string `json:"cell,omitempty"`
	// Message is what is wrong, in the request's language.
	Message string `json:"message"`
}

// ListError is a refused list: every row error found, nothing stored.
type ListError struct {
	Errors []RowError
}

func (e *ListError) Error() string {
	return fmt.Sprintf("group: passenger list has %d errors", len(e.Errors))
}

// ListErrors is the data of a refused list in the API's error envelope.
type ListErrors struct {
	Errors []RowError `json:"errors"`
}

// ErrorData is the envelope's data: every row error, its message
// translated.
func (e *ListError) ErrorData(translate func(key string) string) any {
	out := ListErrors{Errors: make([]RowError, len(e.Errors))}
	for i, re := range e.Errors {
		re.Message = translate(re.Message)
		out.Errors[i] = re
	}
	return out
}

// Unwrap makes the refusal a validation fault for callers that know only
// faults.
func (e *ListError) Unwrap() error {
	return &fault.Error{Code: fault.CodeValidation, Status: http.StatusBadRequest, Key: "group.error.listInvalid"}
}

func fileError(key string, args ...any) error {
	return &fault.Error{Code: fault.CodeValidation, Status: http.StatusBadRequest, Key: key, Args: args}
}

// headerText is a column's header in lang (the field name without a
// catalog).
func (s *Service) headerText(lang, field string) string {
	if s.catalog == nil {
		return field
	}
	return s.catalog.T(lang, "group.list.column."+field)
}

// Template is the passenger-list xlsx in lang: the header row, the
// accepted values and formats in a notes sheet, and lists to choose the
// type, gender and document type from.
func (s *Service) Template(lang string) ([]byte, error) {
	lang = i18n.Normalize(lang)
	f := excelize.NewFile()
	defer f.Close()
	sheet := "Passengers"
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, fmt.Errorf("group: template: %w", err)
	}
	text, err := f.NewStyle(&excelize.Style{NumFmt: 49})
	if err != nil {
		return nil, fmt.Errorf("group: template: %w", err)
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}, NumFmt: 49})
	if err != nil {
		return nil, fmt.Errorf("group: template: %w", err)
	}
	last, _ := excelize.ColumnNumberToName(len(listColumns))
	// Text cells: dates and document numbers stay as typed.
	if err := f.SetColStyle(sheet, "A:"+last, text); err != nil {
		return nil, fmt.Errorf("group: template: %w", err)
	}
	if err := f.SetColWidth(sheet, "A", last, 18); err != nil {
		return nil, fmt.Errorf("group: template: %w", err)
	}
	for i, c := range listColumns {
		cell, _ := excelize.CoordinatesToCellName(i+1, 1)
		if err := f.SetCellStr(sheet, cell, s.headerText(lang, c)); err != nil {
			return nil, fmt.Errorf("group: template: %w", err)
		}
	}
	if err := f.SetCellStyle(sheet, "A1", last+"1", bold); err != nil {
		return nil, fmt.Errorf("group: template: %w", err)
	}
	for col, list := range map[string][]string{"A": profile.PassengerTypes, "D": profile.Genders, "G": profile.DocumentTypes} {
		dv := excelize.NewDataValidation(true)
		dv.Sqref = fmt.Sprintf("%s2:%s%d", col, col, MaxGroupSize+1)
		if err := dv.SetDropList(list); err != nil {
			return nil, fmt.Errorf("group: template: %w", err)
		}
		if err := f.AddDataValidation(sheet, dv); err != nil {
			return nil, fmt.Errorf("group: template: %w", err)
		}
	}
	notes := "Notes"
	if _, err := f.NewSheet(notes); err != nil {
		return nil, fmt.Errorf("group: template: %w", err)
	}
	for i, c := range listColumns {
		row := i + 1
		_ = f.SetCellStr(notes, fmt.Sprintf("A%d", row), s.headerText(lang, c))
		hint := "group.list.hint." + c
		if s.catalog != nil {
			hint = s.catalog.T(lang, hint)
		}
		_ = f.SetCellStr(notes, fmt.Sprintf("B%d", row), hint)
	}
	f.SetActiveSheet(0)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, fmt.Errorf("group: template: %w", err)
	}
	return buf.Bytes(), nil
}

// headerField maps a header cell to its field: the field name itself or
// its header in any language.
func (s *Service) headerField(cell string) string {
	c := strings.ToLower(strings.TrimSpace(cell))
	for _, f := range listColumns {
		if c == strings.ToLower(f) {
			return f
		}
		for _, lang := range []string{i18n.EN, i18n.ZhCN, i18n.ZhTW} {
			if c == strings.ToLower(s.headerText(lang, f)) {
				return f
			}
		}
	}
	return ""
}

// ParseList reads and checks a passenger list against an order's journeys
// and counts. It returns the passengers, or a *ListError with every row
// error, or a file error (not xlsx, too large, too many rows, wrong
// headers, formulas). free is the seats that may be dropped without
// penalty.
func (s *Service) ParseList(r io.Reader, size int64, o Order, free int, today time.Time) ([]Passenger, error) {
	if size > MaxListBytes {
		return nil, fileError("group.error.listTooLarge", "max", "900 KB")
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxListBytes+1))
	if err != nil {
		return nil, fmt.Errorf("group: read list: %w", err)
	}
	if len(data) > MaxListBytes {
		return nil, fileError("group.error.listTooLarge", "max", "900 KB")
	}
	if !bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		return nil, fileError("group.error.listNotXlsx")
	}
	// Before the workbook is read: a cell past the template's columns
	// would make every row that wide in memory (one cell in column XFD on
	// 500 rows cost 200 MB), and a formula's cached value is whatever the
	// last program to save it computed.
	if key, cell := scanSheets(data); key != "" {
		return nil, fileError(key, "cell", cell, "last", lastColumn())
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: maxUnzipped, UnzipXMLSizeLimit: maxUnzippedXML})
	if err != nil {
		if errors.Is(err, excelize.ErrOptionsUnzipSizeLimit) || strings.Contains(err.Error(), "size exceeds") {
			return nil, fileError("group.error.listZipBomb")
		}
		if errors.Is(err, excelize.ErrWorkbookFileFormat) || strings.Contains(err.Error(), "zip") {
			return nil, fileError("group.error.listNotXlsx")
		}
		return nil, fileError("group.error.listUnreadable")
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, fileError("group.error.listHeaders")
	}
	sheet := sheets[0]
	rows, err := f.Rows(sheet)
	if err != nil {
		return nil, fileError("group.error.listUnreadable")
	}
	defer rows.Close()
	var table [][]string
	for rows.Next() {
		if len(table) > MaxGroupSize+1 {
			return nil, fileError("group.error.listTooManyRows", "max", MaxGroupSize)
		}
		cols, err := rows.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, fileError("group.error.listUnreadable")
		}
		table = append(table, cols)
	}
	if err := rows.Error(); err != nil {
		return nil, fileError("group.error.listUnreadable")
	}
	// Trailing blank rows are not passengers.
	for len(table) > 0 && blank(table[len(table)-1]) {
		table = table[:len(table)-1]
	}
	if len(table) > MaxGroupSize+1 {
		return nil, fileError("group.error.listTooManyRows", "max", MaxGroupSize)
	}
	if len(table) == 0 {
		return nil, fileError("group.error.listHeaders")
	}
	index := map[string]int{}
	for i, h := range table[0] {
		if fld := s.headerField(h); fld != "" {
			index[fld] = i
		}
	}
	for _, c := range listColumns[:9] {
		if _, ok := index[c]; !ok {
			return nil, fileError("group.error.listHeaders")
		}
	}
	return checkList(table, index, o, free, today)
}

// scanSheets reads every worksheet of the workbook as an XML stream, once,
// before anything else reads it, and answers the first cell that is past
// the template's columns (group.error.listBeyondColumns) or holds a formula
// (group.error.listFormula), with its name; "" when there is none. Elements
// are matched by their local name, whatever the namespace prefix the
// writer chose (<f>, <x:f>): a list of prefixes would miss the next one.
// A cell without its reference is where the one before it leaves off.
func scanSheets(data []byte) (key, cell string) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", "" // excelize says what is wrong with the file
	}
	for _, zf := range zr.File {
		if !strings.HasPrefix(zf.Name, "xl/worksheets/") || !strings.HasSuffix(zf.Name, ".xml") {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			continue
		}
		key, cell = scanSheet(io.LimitReader(rc, maxUnzippedXML))
		rc.Close()
		if key != "" {
			return key, cell
		}
	}
	return "", ""
}

func scanSheet(r io.Reader) (key, cell string) {
	dec := xml.NewDecoder(r)
	row, col := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", ""
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "row":
			row++
			col = 0
			for _, a := range se.Attr {
				if a.Name.Local == "r" {
					if n, err := strconv.Atoi(a.Value); err == nil {
						row = n
					}
				}
			}
		case "c":
			col++
			for _, a := range se.Attr {
				if a.Name.Local == "r" {
					if c, r, err := excelize.CellNameToCoordinates(a.Value); err == nil {
						col, row = c, r
					}
				}
			}
			cell, _ = excelize.CoordinatesToCellName(max(col, 1), max(row, 1))
			if col > len(listColumns) {
				return "group.error.listBeyondColumns", cell
			}
		case "f":
			return "group.error.listFormula", cell
		}
	}
}

// lastColumn is the template's last column's name ("L").
func lastColumn() string {
	name, _ := excelize.ColumnNumberToName(len(listColumns))
	return name
}

func blank(row []string) bool {
	for _, c := range row {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// cellDate reads a date cell: text as typed, or an Excel date serial.
func cellDate(v string) string {
	v = strings.TrimSpace(v)
	if n, err := strconv.ParseFloat(v, 64); err == nil && n > 0 && n < 2958466 && !strings.Contains(v, "-") {
		if t, err := excelize.ExcelDateToTime(n, false); err == nil {
			return t.Format(time.DateOnly)
		}
	}
	return strings.ReplaceAll(v, "/", "-")
}

// checkList applies spec §5's passenger rules row by row: the profile's
// field rules (surname A–Z, dates, documents, nationality), the type by age
// on the first travel date, the document valid past the last journey, one
// passenger per document, and the counts by type against the request's.
func checkList(table [][]string, index map[string]int, o Order, free int, today time.Time) ([]Passenger, error) {
	travel, last := today, today
	if len(o.Journeys) > 0 {
		if d, err := time.Parse(time.DateOnly, o.Journeys[0].Date); err == nil {
			travel = d
		}
		j := o.Journeys[len(o.Journeys)-1]
		end := j.Date
		if j.ReturnDate != "" {
			end = j.ReturnDate
		}
		if d, err := time.Parse(time.DateOnly, end); err == nil {
			last = d
		}
	}
	var errs []RowError
	var out []Passenger
	docs := map[string]int{}
	for r := 1; r < len(table); r++ {
		row := table[r]
		if blank(row) {
			continue
		}
		get := func(field string) string {
			i, ok := index[field]
			if !ok || i >= len(row) {
				return ""
			}
			return row[i]
		}
		in := profile.PassengerInput{Type: get("type"), Surname: get("surname"), GivenName: get("givenName"), Gender: get("gender"),
			Birthday: cellDate(get("birthday")), Nationality: get("nationality"), DocumentType: get("documentType"),
			DocumentNumber: get("documentNumber"), DocumentExpiry: cellDate(get("documentExpiry")), DocumentIssuedAt: get("documentIssuedAt"),
			Phone: get("phone"), Email: get("email")}.Normalize()
		fields := in.Validate(today)
		if _, bad := fields["birthday"]; !bad {
			if b, err := time.Parse(time.DateOnly, in.Birthday); err == nil {
				if _, badType := fields["type"]; !badType && supplier.TypeForAge(supplier.AgeOn(b, travel)) != in.Type {
					fields["type"] = "order.passenger.error.typeByAge"
				}
			}
		}
		if _, bad := fields["documentExpiry"]; !bad {
			if d, err := time.Parse(time.DateOnly, in.DocumentExpiry); err == nil && d.Before(last) {
				fields["documentExpiry"] = "order.passenger.error.documentExpired"
			}
		}
		if _, bad := fields["documentNumber"]; !bad {
			if first, dup := docs[in.DocumentType+"/"+in.DocumentNumber]; dup {
				fields["documentNumber"] = i18n.WithArgs("group.error.listDuplicate", "row", first)
			} else {
				docs[in.DocumentType+"/"+in.DocumentNumber] = r + 1
			}
		}
		for _, c := range listColumns {
			key, bad := fields[c]
			if !bad {
				continue
			}
			cell := ""
			if i, ok := index[c]; ok {
				cell, _ = excelize.CoordinatesToCellName(i+1, r+1)
			}
			errs = append(errs, RowError{Row: r + 1, Column: c, Cell: cell, Message: key})
		}
		out = append(out, Passenger{Type: in.Type, Surname: in.Surname, GivenName: in.GivenName, Gender: in.Gender, Birthday: in.Birthday,
			Nationality: in.Nationality, DocumentType: in.DocumentType, DocumentNumber: in.DocumentNumber, DocumentExpiry: in.DocumentExpiry,
			DocumentIssuedAt: in.DocumentIssuedAt, Phone: in.Phone, Email: in.Email})
	}
	if len(out) == 0 {
		errs = append(errs, RowError{Row: 2, Column: "surname", Message: "group.error.listEmpty"})
	} else if len(errs) == 0 {
		for _, key := range countErrors(out, o.Counts, free) {
			errs = append(errs, RowError{Row: 0, Column: "type", Message: key})
		}
	}
	if len(errs) > MaxListErrors {
		// A list wrong everywhere is answered with its first problems, and
		// how many more there are, not with thousands of them.
		more := len(errs) - MaxListErrors
		errs = append(errs[:MaxListErrors:MaxListErrors], RowError{Row: 0, Column: "", Message: i18n.WithArgs("group.error.listMoreErrors", "count", more)})
	}
	if len(errs) > 0 {
		return nil, &ListError{Errors: errs}
	}
	return out, nil
}

// countErrors compares a list's types with the counts asked for: no type
// beyond its count, and no more seats dropped than free allows.
func countErrors(ps []Passenger, want Counts, free int) []string {
	n := map[string]int{}
	for _, p := range ps {
		n[p.Type]++
	}
	var out []string
	if n[supplier.Adult] > want.Adult || n[supplier.Child] > want.Child || n[supplier.Infant] > want.Infant {
		out = append(out, i18n.WithArgs("group.error.listCounts", "adult", want.Adult, "child", want.Child, "infant", want.Infant))
	} else if seats := n[supplier.Adult] + n[supplier.Child]; seats < want.Seats()-max(free, 0) || n[supplier.Infant] != want.Infant {
		out = append(out, i18n.WithArgs("group.error.listCounts", "adult", want.Adult, "child", want.Child, "infant", want.Infant))
	}
	return out
}

// freeDrops is the free-drop seats of the order's current quote.
func (s *Service) freeDrops(ctx context.Context, o Order) (int, error) {
	qs, err := quotes(ctx, s.DB, o.ID)
	if err != nil {
		return 0, err
	}
	if q, ok := current(qs); ok {
		return q.FreeDropSeats, nil
	}
	return 0, nil
}

// UploadPassengers replaces the order's passenger list with the uploaded
// xlsx when every row is valid (a *ListError lists the rows that are not,
// and nothing is stored). After confirmation the list is locked.
func (s *Service) UploadPassengers(ctx context.Context, who auth.Principal, id int64, r io.Reader, size int64) (int, error) {
	o, v, err := s.Books.Get(ctx, who, id)
	if err != nil {
		return 0, err
	}
	if !o.ConfirmedAt.IsZero() {
		return 0, fault.Conflict("group.error.locked")
	}
	if err := may(v, o, ActUpload); err != nil {
		return 0, err
	}
	free, err := s.freeDrops(ctx, o)
	if err != nil {
		return 0, err
	}
	ps, err := s.ParseList(r, size, o, free, booking.Today(s.Now(), v.Agency))
	if err != nil {
		return 0, err
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o.Passengers = ps
		return s.touch(ctx, tx, &o, ActUpload, actorOf(who), remarkOf(remarkListed, "count", len(ps)))
	})
	if err != nil {
		return 0, err
	}
	return len(ps), nil
}

// Passengers is the order's passenger list.
func (s *Service) Passengers(ctx context.Context, who auth.Principal, id int64) ([]Passenger, error) {
	o, _, err := s.Books.Get(ctx, who, id)
	if err != nil {
		return nil, err
	}
	if o.Passengers == nil {
		return []Passenger{}, nil
	}
	return o.Passengers, nil
}
