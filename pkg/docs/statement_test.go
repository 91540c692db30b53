package docs

import (
	"archive/zip"
	"bytes"
	"compress/zlib"
	"encoding/csv"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
)

func sample(lang string, invoice bool) Statement {
	cat := i18n.MustLoad()
	from := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	entries := []ledger.Entry{
		{ID: 1, Type: ledger.TypeTopUp, Amount: 1000_00, Currency: "CNY", BalanceAfter: 1200_00, Reference: "HSBC-1", Description: "top-up", PaidAt: from.Add(time.Hour), Detail: "{}"},
		{ID: 2, Type: ledger.TypeOriginFlight, Amount: -350_50, Currency: "CNY", BalanceAfter: 849_50, OrderID: "F100", Description: "北京—伦敦", PaidAt: from.Add(48 * time.Hour), Detail: `{"invoiceType":"Itinerary"}`},
	}
	return Statement{Provider: "Voyage Travel", AgencyName: "示例旅行社", AgencyCode: "A2345678", InvoiceType: invoice, Entries: entries,
		Info: ledger.StatementInfo{ID: 7, Currency: "CNY", From: from, To: from.AddDate(0, 1, 0), Opening: 200_00, Closing: 849_50},
		T:    func(key string, args ...any) string { return cat.T(lang, key, args...) }}
}

// TestCSV reads the file as an importer does: a UTF-8 byte-order mark, the
// header as the first record, one record per entry, all the same width.
func TestCSV(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang                      string
		time, amount, description string
	}{
		{"en", "Payment time (UTC+00:00 UTC)", "Amount (CNY)", "Top-up"},
		{"zh-cn", "支付时间 (UTC+00:00 UTC)", "金额 (CNY)", "充值"},
		{"zh-tw", "支付時間 (UTC+00:00 UTC)", "金額 (CNY)", "儲值"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteCSV(&buf, sample(tt.lang, false)); err != nil {
				t.Fatal(err)
			}
			body, ok := bytes.CutPrefix(buf.Bytes(), []byte("\xef\xbb\xbf"))
			if !ok {
				t.Fatalf("no UTF-8 byte-order mark: % x", buf.Bytes()[:3])
			}
			rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll() // FieldsPerRecord 0: every record as wide as the header
			if err != nil {
				t.Fatalf("not a rectangular CSV: %v", err)
			}
			if len(rows) != 3 || rows[0][0] != tt.time || rows[0][5] != tt.amount || len(rows[0]) != 7 {
				t.Fatalf("header = %v (%d records)", rows[0], len(rows))
			}
			if first := rows[1]; first[0] != "2026-10-01 01:00:00" || first[4] != tt.description || first[5] != "1000.00" {
				t.Errorf("first entry = %v", first)
			}
			if last := rows[2]; last[2] != "F100" || last[4] != "北京—伦敦" || last[5] != "-350.50" || last[6] != "849.50" {
				t.Errorf("last entry = %v", last)
			}
		})
	}
}

func TestStatementFileName(t *testing.T) {
	t.Parallel()
	s := sample("en", false)
	if got := StatementFileName(s.AgencyCode, s.Info.From, s.Info.To, CSV); got != "statement-A2345678-20261001-20261031.csv" {
		t.Errorf("file name = %q", got)
	}
	f, err := ExportStatement(XLSX, s)
	if err != nil || f.Name != "statement-A2345678-20261001-20261031.xlsx" || !strings.HasPrefix(f.ContentType, "application/vnd.openxml") {
		t.Errorf("export = %q %q %v", f.Name, f.ContentType, err)
	}
}

func TestXLSX(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "zh-cn", "zh-tw"} {
		for _, invoice := range []bool{false, true} {
			var buf bytes.Buffer
			s := sample(lang, invoice)
			if err := WriteXLSX(&buf, s); err != nil {
				t.Fatal(err)
			}
			raw := buf.Bytes()
			f, err := excelize.OpenReader(bytes.NewReader(raw))
			if err != nil {
				t.Fatalf("not XLSX: %v", err)
			}
			sheets := f.GetSheetList()
			sheet := sheets[0]
			if sheet != s.T("statement.title") || len(sheets) != 2 {
				t.Errorf("%s: sheets = %v", lang, sheets)
			}
			rows, err := f.GetRows(sheet)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 3 || rows[0][0] != s.T("finance.col.time")+" (UTC+00:00 UTC)" || (len(rows[0]) == 8) != invoice {
				t.Errorf("%s invoice %v: rows = %v", lang, invoice, rows)
			}
			// Shown through their number formats: a date and grouped amounts.
			if got := rows[1][0]; got != "2026-10-01 01:00:00" {
				t.Errorf("time cell shows %q", got)
			}
			if got := rows[1][5]; got != "1,000.00" {
				t.Errorf("amount cell shows %q", got)
			}
			if invoice && rows[2][7] != "Itinerary" {
				t.Errorf("invoice type = %v", rows[2])
			}
			for cell, want := range map[string]excelize.CellType{"A2": excelize.CellTypeNumber, "F3": excelize.CellTypeNumber, "G3": excelize.CellTypeNumber} {
				if typ, _ := f.GetCellType(sheet, cell); typ != want && typ != excelize.CellTypeUnset {
					t.Errorf("%s is type %v, want a number", cell, typ)
				}
			}
			if v, _ := f.GetCellValue(sheet, "F3", excelize.Options{RawCellValue: true}); v != "-350.5" {
				t.Errorf("F3 raw value %q, want the number -350.5", v)
			}
			style := func(cell string) *excelize.Style {
				id, err := f.GetCellStyle(sheet, cell)
				if err != nil {
					t.Fatal(err)
				}
				st, err := f.GetStyle(id)
				if err != nil {
					t.Fatal(err)
				}
				return st
			}
			if st := style("F2"); st.CustomNumFmt == nil || *st.CustomNumFmt != "#,##0.00" {
				t.Errorf("amount format = %+v", st.CustomNumFmt)
			}
			if st := style("A3"); st.CustomNumFmt == nil || *st.CustomNumFmt != xlsxDateTime {
				t.Errorf("time format = %+v", st.CustomNumFmt)
			}
			if st := style("A1"); st.Font == nil || !st.Font.Bold || len(st.Fill.Color) == 0 {
				t.Errorf("header style = %+v", st)
			}
			panes, err := f.GetPanes(sheet)
			if err != nil || !panes.Freeze || panes.YSplit != 1 {
				t.Errorf("panes = %+v, %v", panes, err)
			}
			if w, _ := f.GetColWidth(sheet, "E"); w < 10 {
				t.Errorf("description column width %v", w)
			}
			last := "G3"
			if invoice {
				last = "H3"
			}
			sheetXML := zipFile(t, raw, "xl/worksheets/sheet1.xml")
			for _, want := range []string{`<dimension ref="A1:` + last + `"`, `<autoFilter ref="$A$1:$` + last[:1] + `$3"`} {
				if !strings.Contains(sheetXML, want) {
					t.Errorf("sheet XML lacks %s", want)
				}
			}
			sum, _ := f.GetRows(sheets[1])
			if len(sum) < 8 || sum[0][1] != "Voyage Travel" || sum[5][1] != "200.00" || sum[7][1] != "849.50" {
				t.Errorf("summary = %v", sum)
			}
			f.Close()
		}
	}
}

func zipFile(t *testing.T, b []byte, name string) string {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := z.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestPDF(t *testing.T) {
	t.Parallel()
	s := sample("zh-tw", true)
	// Enough entries for several pages.
	for i := 0; i < 120; i++ {
		s.Entries = append(s.Entries, s.Entries[1])
	}
	var buf bytes.Buffer
	if err := WritePDF(&buf, s); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasPrefix(out, "%PDF-") || strings.Count(out, "/FontFile2") != 2 {
		t.Fatalf("not a PDF with both fonts embedded (%d bytes)", buf.Len())
	}
	_, _, pages := statementPages(len(s.Entries) + 1)
	m := regexp.MustCompile(`/Count (\d+)`).FindStringSubmatch(out)
	if m == nil || m[1] != strconv.Itoa(pages) || pages < 3 {
		t.Errorf("page count %v, want %d (3 or more for 122 entries)", m, pages)
	}
	if buf.Len() > 3<<20 {
		t.Errorf("PDF is %d bytes: the font should be subset", buf.Len())
	}
}

// TestStatementPDFText reads the text back from uncompressed statement PDFs:
// the CJK font has no Latin letters or digits, so the agency code,
// references, dates and amounts must come out of the Latin font and the
// Chinese out of the CJK one.
func TestStatementPDFText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang    string
		invoice bool
		want    []string
	}{
		{"zh-cn", false, []string{"对账单 — 示例旅行社 (A2345678)", "期间: 2026-10-01 – 2026-10-31", "期初余额: 200.00", "共 41 笔", "充值", "机票",
			"合计", "金额 (CNY)", "第 1 页，共 2 页", "第 2 页，共 2 页", "时区: UTC"}},
		{"zh-tw", true, []string{"對帳單 — 示例旅行社 (A2345678)", "共 41 筆", "儲值", "Itinerary", "None", "合計", "第 2 頁，共 2 頁"}},
		{"en", false, []string{"Statement — 示例旅行社 (A2345678)", "Opening balance: 200.00", "41 entries", "Top-up", "Flight ticket",
			"Total", "Page 1 of 2", "Page 2 of 2", "Amount (CNY)"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			s := sample(tt.lang, tt.invoice)
			// A description too long for its column is cut with an ellipsis.
			long := s.Entries[1]
			long.Description = strings.Repeat("伦敦往返", 20) + "TAIL"
			s.Entries = append(s.Entries, long)
			// Enough small entries for a second page.
			for i := 0; i < 38; i++ {
				s.Entries = append(s.Entries, ledger.Entry{Type: ledger.TypeTopUp, Amount: 1, BalanceAfter: 1, Description: "top-up", PaidAt: s.Info.From})
			}
			var buf bytes.Buffer
			if err := writeStatementPDF(&buf, s, false); err != nil {
				t.Fatal(err)
			}
			text := pdfText(t, buf.String())
			var total int64
			for _, e := range s.Entries {
				total += e.Amount
			}
			want := append([]string{"Voyage Travel", "示例旅行社", "HSBC-1", "F100", "2026-10-03 00:00", "UTC+00:00 (UTC)",
				"1,000.00", "1,200.00", "-350.50", "849.50", "北京—伦敦", "F100伦敦往返伦敦往返", "A2345678 · 2026-10-01 – 2026-10-31",
				s.grouped(total)}, tt.want...)
			wantInPDFText(t, text, want...)
			for _, no := range []string{"TAIL", "top-up"} {
				if strings.Contains(text, no) {
					t.Errorf("%q in the PDF text (untranslated or not cut):\n%s", no, text)
				}
			}
		})
	}
}

// TestStatementPDFOneEntry: a single entry is "1 entry", not "1 entries".
func TestStatementPDFOneEntry(t *testing.T) {
	t.Parallel()
	s := sample("en", false)
	s.Entries = s.Entries[:1]
	var buf bytes.Buffer
	if err := writeStatementPDF(&buf, s, false); err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, buf.String())
	if !strings.Contains(text, "1 entry") || strings.Contains(text, "1 entries") || !strings.Contains(text, "Page 1 of 1") {
		t.Errorf("PDF text:\n%s", text)
	}
}

// TestStatementPDFLogo: the letterhead draws the site's logo. The PDF holds
// one image, the logo's 128×128 raster, drawn on the first page; decoded,
// its pixels are the logo's blue and yellow.
func TestStatementPDFLogo(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "zh-cn", "zh-tw"} {
		var buf bytes.Buffer
		if err := WritePDF(&buf, sample(lang, false)); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		img := regexp.MustCompile(`(?s)/Subtype /Image\s*/Width (\d+)\s*/Height (\d+)\s*/ColorSpace /DeviceRGB.*?/Length (\d+)\s*>>\s*stream\r?\n`).FindStringSubmatchIndex(out)
		if img == nil {
			t.Fatalf("%s: no RGB image in the statement PDF", lang)
		}
		w, _ := strconv.Atoi(out[img[2]:img[3]])
		h, _ := strconv.Atoi(out[img[4]:img[5]])
		n, _ := strconv.Atoi(out[img[6]:img[7]])
		if w != 128 || h != 128 {
			t.Errorf("%s: image %dx%d, want the 128x128 logo", lang, w, h)
		}
		if !regexp.MustCompile(`/I\d+ Do`).MatchString(pdfPageContent(t, out)) {
			t.Errorf("%s: the first page does not draw the image", lang)
		}
		px := pngRows(t, []byte(out[img[1]:img[1]+n]), w, h, 3)
		at := func(x, y int) [3]byte { p := px[y][3*x:]; return [3]byte{p[0], p[1], p[2]} }
		if got := at(4, 64); got != [3]byte{0x0b, 0x5c, 0xad} {
			t.Errorf("%s: pixel (4,64) = %x, want the logo's blue 0b5cad", lang, got)
		}
		yellow := false
		for y := range px {
			for x := 0; x < w; x++ {
				if at(x, y) == [3]byte{0xff, 0xd1, 0x66} {
					yellow = true
				}
			}
		}
		if !yellow {
			t.Errorf("%s: the logo's yellow (ffd166) is not in the image", lang)
		}
	}
}

// pdfPageContent is the first page's content stream, inflated.
func pdfPageContent(t *testing.T, pdf string) string {
	t.Helper()
	m := regexp.MustCompile(`/Contents\s+(\d+) 0 R`).FindStringSubmatch(pdf)
	if m == nil {
		t.Fatal("no page contents")
	}
	obj := regexp.MustCompile(`(?s)\n` + m[1] + ` 0 obj\s*<<(.*?)>>\s*stream\r?\n`).FindStringSubmatchIndex(pdf)
	if obj == nil {
		t.Fatalf("no object %s", m[1])
	}
	dict := pdf[obj[2]:obj[3]]
	n, _ := strconv.Atoi(regexp.MustCompile(`/Length (\d+)`).FindStringSubmatch(dict)[1])
	body := pdf[obj[1] : obj[1]+n]
	if !strings.Contains(dict, "FlateDecode") {
		return body
	}
	return string(inflate(t, []byte(body)))
}

// inflate reads a FlateDecode stream whole.
func inflate(t *testing.T, stream []byte) []byte {
	t.Helper()
	r, err := zlib.NewReader(bytes.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pngRows inflates a FlateDecode image stream with PNG predictors
// (/Predictor 15) into rows of w pixels of bpp bytes.
func pngRows(t *testing.T, stream []byte, w, h, bpp int) [][]byte {
	t.Helper()
	raw := inflate(t, stream)
	stride := w * bpp
	if len(raw) != h*(stride+1) {
		t.Fatalf("image data is %d bytes, want %d", len(raw), h*(stride+1))
	}
	rows := make([][]byte, h)
	prev := make([]byte, stride)
	for y := 0; y < h; y++ {
		f, cur := raw[y*(stride+1)], append([]byte(nil), raw[y*(stride+1)+1:(y+1)*(stride+1)]...)
		for i := range cur {
			var a, c byte
			if i >= bpp {
				a, c = cur[i-bpp], prev[i-bpp]
			}
			b := prev[i]
			switch f {
			case 1:
				cur[i] += a
			case 2:
				cur[i] += b
			case 3:
				cur[i] += byte((int(a) + int(b)) / 2)
			case 4:
				p := int(a) + int(b) - int(c)
				pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
				switch {
				case pa <= pb && pa <= pc:
					cur[i] += a
				case pb <= pc:
					cur[i] += b
				default:
					cur[i] += c
				}
			}
		}
		rows[y], prev = cur, cur
	}
	return rows
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestStatementLabelsAndZone: an entry written from its data (a group
// payment) reads as its label, and a statement cut on Shanghai's days is
// named and written on Shanghai's clock.
func TestStatementLabelsAndZone(t *testing.T) {
	t.Parallel()
	s := sample("zh-cn", false)
	s.Entries[1].Type, s.Entries[1].Description = ledger.TypeGroupDeposit, "group PEK-SHA first (20 pax)"
	s.Labels = map[int64]string{2: "团队订单 PEK-SHA：第一期定金，20 名乘客"}
	shanghai := time.FixedZone("CST", 8*3600)
	s.Info.From = time.Date(2026, 10, 1, 0, 0, 0, 0, shanghai)
	s.Info.To = time.Date(2026, 11, 1, 0, 0, 0, 0, shanghai)
	s.Info.TimeZone = "Asia/Shanghai"
	var buf bytes.Buffer
	if err := WriteCSV(&buf, s); err != nil {
		t.Fatal(err)
	}
	if body := buf.String(); !strings.Contains(body, "团队订单 PEK-SHA：第一期定金，20 名乘客") || strings.Contains(body, "group PEK-SHA first") {
		t.Errorf("the group payment does not read as its label:\n%s", body)
	}
	if p := s.period(); p != "2026-10-01 – 2026-10-31" {
		t.Errorf("period = %q, want Shanghai's days", p)
	}
	f, err := ExportStatement(CSV, s)
	if err != nil || f.Name != "statement-A2345678-20261001-20261031.csv" {
		t.Errorf("file name = %q %v", f.Name, err)
	}
}
