package docs

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

var catalog = i18n.MustLoad()

// translator is the catalog in lang; it fails the test on a key the
// catalog lacks, since the documents would print the key.
func translator(t *testing.T, lang string) Translate {
	return func(key string, args ...any) string {
		if !catalog.Has(lang, key) {
			t.Errorf("%s: key %q not in the catalog", lang, key)
		}
		return catalog.T(lang, key, args...)
	}
}

func cny(a string) Money { return Money{Amount: a, Currency: "CNY"} }

func seg(flight, carrier, from, fromName, to, toName string, dep, arr time.Time) shopping.SegmentView {
	return shopping.SegmentView{Segment: supplier.Segment{Carrier: carrier, FlightNumber: flight, Origin: from, Destination: to,
		DepartAt: dep, ArriveAt: arr, DurationMinutes: int(arr.Sub(dep).Minutes()), Cabin: supplier.CabinEconomy,
		BookingClass: "Y", FareBasis: "YOW" + carrier}, OriginName: fromName, DestinationName: toName}
}

// sampleOrder is a Beijing–London return for two passengers. The return
// flight ends at an airport the geo data does not know, so its stored name
// is what the documents show.
func sampleOrder(issued bool) Flight {
	out := time.Date(2026, 7, 3, 5, 30, 0, 0, time.UTC)
	back := time.Date(2026, 7, 20, 19, 0, 0, 0, time.UTC)
	o := Flight{
		BookingNumber: "F2026070300042", Status: "issued", PNR: "NX7K2P", Airline: "CA",
		Segments: []shopping.SegmentView{
			seg("CA937", "CA", "PEK", "北京首都国际机场", "LHR", "伦敦希思罗机场", out, out.Add(11*time.Hour+5*time.Minute)),
			seg("CA938", "CA", "LHR", "伦敦希思罗机场", "QQZ", "测试国际机场", back, back.Add(10*time.Hour+20*time.Minute)),
		},
		Passengers: []booking.Passenger{
			{Type: "adult", Surname: "张", GivenName: "三", DocumentType: "passport", DocumentNumber: "E12345678", TicketNumber: "999-2100000001",
				FrequentFlyer: "CA123456", FFAirline: "CA"},
			{Type: "child", Surname: "Smith", GivenName: "Anna Mary", DocumentType: "passport", DocumentNumber: "GB9876543", TicketNumber: "999-2100000002"},
		},
		Contact: booking.Contact{Name: "李四", Email: "ops@example.com", Phone: "+86 10 5555 0100"},
		Total:   cny("12345.60"),
		Prices: FlightPrices{Fare: cny("10000.00"), Taxes: cny("2245.60"), ServiceFee: cny("100.00"),
			Discount: cny("0.00"), FareBasis: "YOW"},
	}
	if !issued {
		o.Status = "to_be_paid"
		for i := range o.Passengers {
			o.Passengers[i].TicketNumber = ""
		}
	}
	return o
}

func sampleTicket(t *testing.T, lang string, issued bool) Ticket {
	return Ticket{Flight: sampleOrder(issued), Lang: lang, T: translator(t, lang),
		Baggage: &supplier.Baggage{CheckedPieces: 2, CheckedKg: 23, CabinPieces: 1, CabinKg: 7},
		Date:    time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}
}

var langs = []string{i18n.EN, i18n.ZhCN, i18n.ZhTW}

func TestTicketXLSX(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, kind string
		issued     bool
		want       []string
	}{
		{i18n.ZhCN, Itinerary, true, []string{"行程单", "已出票", "张/三", "护照 *****5678", "北京首都国际机场", "测试国际机场", "经济舱 / Y", "11小时05分"}},
		{i18n.ZhTW, Itinerary, true, []string{"行程單", "已開票", "北京首都國際機場", "倫敦希思羅機場", "經濟艙 / Y"}},
		{i18n.EN, Itinerary, true, []string{"Itinerary", "Ticketed", "SMITH/ANNA MARY", "Child", "Beijing Capital International Airport", "11h 05m", "李四"}},
		{i18n.ZhCN, ETicket, true, []string{"电子客票", "乘机人 2/2", "YOWCA", "托运：2 件 × 23 公斤 / 手提：1 件 × 7 公斤", "CA 中国国际航空"}},
		{i18n.EN, ETicket, false, []string{"Electronic ticket", "Awaiting payment", "Not issued yet", "not valid for travel"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.kind, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteTicket(&buf, tt.kind, XLSX, sampleTicket(t, tt.lang, tt.issued)); err != nil {
				t.Fatal(err)
			}
			f, err := excelize.OpenReader(&buf)
			if err != nil {
				t.Fatalf("not XLSX: %v", err)
			}
			defer f.Close()
			sheet := f.GetSheetList()[0]
			rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
			if err != nil {
				t.Fatal(err)
			}
			var cells []string
			for _, r := range rows {
				cells = append(cells, r...)
			}
			has := func(s string) bool {
				for _, c := range cells {
					if strings.Contains(c, s) {
						return true
					}
				}
				return false
			}
			want := append([]string{"F2026070300042", "NX7K2P", "CA937", "CA938",
				// Local times: Beijing is UTC+8, London on summer time UTC+1.
				"2026-07-03 13:30", "2026-07-03 17:35", "2026-06-01", "12345.6"}, tt.want...)
			if tt.issued {
				want = append(want, "999-2100000001", "999-2100000002")
			}
			for _, w := range want {
				if !has(w) {
					t.Errorf("no cell holds %q; cells: %q", w, cells)
				}
			}
			if !tt.issued && has("999-") {
				t.Error("an unissued order shows a ticket number")
			}
			if has("9000") {
				t.Error("the cost price is printed")
			}
			for _, col := range []string{"A", "B", "C"} {
				if w, err := f.GetColWidth(sheet, col); err != nil || w < 8 || w > 48 {
					t.Errorf("column %s width %v (%v)", col, w, err)
				}
			}
		})
	}
}

func TestTicketPDF(t *testing.T) {
	t.Parallel()
	for _, lang := range langs {
		for _, kind := range TicketKinds {
			for _, issued := range []bool{true, false} {
				var buf bytes.Buffer
				if err := WriteTicket(&buf, kind, PDF, sampleTicket(t, lang, issued)); err != nil {
					t.Fatalf("%s %s: %v", lang, kind, err)
				}
				out := buf.String()
				if !strings.HasPrefix(out, "%PDF-") || strings.Count(out, "/FontFile2") != 2 {
					t.Errorf("%s %s: not a PDF with both fonts embedded", lang, kind)
				}
				if buf.Len() < 10<<10 || buf.Len() > 2<<20 {
					t.Errorf("%s %s: PDF of %d bytes; the fonts should be subset", lang, kind, buf.Len())
				}
			}
		}
	}
}

// TestTicketPDFText reads the text back from uncompressed PDFs: the Latin
// and the Chinese must both be there, each drawn in a font that has it.
func TestTicketPDFText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, kind string
		issued     bool
		pages      int
		want       []string
	}{
		{i18n.ZhCN, Itinerary, true, 1, []string{"行程单", "张/三", "SMITH/ANNA MARY", "北京首都国际机场", "999-2100000001", "CNY 12,345.60", "第 1 页"}},
		{i18n.ZhTW, Itinerary, true, 1, []string{"行程單", "北京首都國際機場", "CNY 10,000.00"}},
		{i18n.EN, Itinerary, true, 1, []string{"Itinerary", "Beijing Capital", "2026-07-03", "13:30", "Page 1"}},
		{i18n.ZhCN, ETicket, true, 2, []string{"电子客票", "乘机人 1/2", "乘机人 2/2", "999-2100000002", "YOWCA", "第 2 页"}},
		{i18n.ZhTW, ETicket, false, 2, []string{"電子機票", "尚未開票", "不得作為搭機憑證"}},
		{i18n.EN, ETicket, false, 2, []string{"Electronic ticket", "Not issued yet", "not valid for travel"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.kind, func(t *testing.T) {
			d, err := buildTicket(tt.kind, sampleTicket(t, tt.lang, tt.issued))
			if err != nil {
				t.Fatal(err)
			}
			raw, text := ticketPDF(t, d)
			wantInPDFText(t, text, append([]string{"F2026070300042", "NX7K2P", "CA937", "CA938"}, tt.want...)...)
			if m := regexp.MustCompile(`/Count (\d+)`).FindStringSubmatch(raw); m == nil || m[1] != strconv.Itoa(tt.pages) {
				t.Errorf("page count %v, want %d", m, tt.pages)
			}
		})
	}
}

func TestTicketErrors(t *testing.T) {
	t.Parallel()
	tk := sampleTicket(t, i18n.EN, true)
	tests := []struct {
		name, kind, format string
		tk                 Ticket
	}{
		{"unknown kind", "boarding-pass", PDF, tk},
		{"unknown kind xlsx", "", XLSX, tk},
		{"unknown format", Itinerary, CSV, tk},
		{"no translator", ETicket, PDF, Ticket{Flight: tk.Flight}},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if err := WriteTicket(&buf, tt.kind, tt.format, tt.tk); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: %d bytes written before the error", tt.name, buf.Len())
		}
	}
}

func TestFormatMoney(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"0.00", "CNY 0.00"}, {"999.5", "CNY 999.5"}, {"1000.00", "CNY 1,000.00"},
		{"-1234567.89", "CNY -1,234,567.89"}, {"123456", "CNY 123,456"}, {"", "CNY 0"},
	}
	for _, tt := range tests {
		if got := formatMoney(cny(tt.in)); got != tt.want {
			t.Errorf("formatMoney(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// ticketPDF renders d uncompressed, so that pdfText can read it back.
func ticketPDF(t *testing.T, d ticketDoc) (raw, text string) {
	t.Helper()
	var buf bytes.Buffer
	if err := writeTicketPDF(&buf, d, false); err != nil {
		t.Fatal(err)
	}
	return buf.String(), pdfText(t, buf.String())
}

// wantInPDFText reports each of words that text (from pdfText) lacks.
func wantInPDFText(t *testing.T, text string, words ...string) {
	t.Helper()
	for _, w := range words {
		if !strings.Contains(text, w) {
			t.Errorf("%q not in the PDF text:\n%s", w, text)
		}
	}
}

// pdfText decodes the text of an uncompressed gopdf file: each font's
// ToUnicode map turns the glyph ids of the TJ operators back into runes.
// Text on one baseline is one line.
func pdfText(t *testing.T, pdf string) string {
	t.Helper()
	objs := map[string]string{}
	for _, m := range regexp.MustCompile(`(?s)(\d+) 0 obj(.*?)endobj`).FindAllStringSubmatch(pdf, -1) {
		objs[m[1]] = m[2]
	}
	ref := func(body, key string) string {
		m := regexp.MustCompile(key + ` (\d+) 0 R`).FindStringSubmatch(body)
		if m == nil {
			return ""
		}
		return m[1]
	}
	fonts := map[string]map[string]rune{} // resource name → glyph id → rune
	for _, body := range objs {
		for _, m := range regexp.MustCompile(`/(F\d+) (\d+) 0 R`).FindAllStringSubmatch(body, -1) {
			cmap := map[string]rune{}
			for _, e := range regexp.MustCompile(`<([0-9A-F]{4})><[0-9A-F]{4}><([0-9A-F]+)>`).FindAllStringSubmatch(objs[ref(objs[m[2]], "/ToUnicode")], -1) {
				r, _ := strconv.ParseUint(e[2], 16, 32)
				cmap[e[1]] = rune(r)
			}
			fonts[m[1]] = cmap
		}
	}
	if len(fonts) != 2 {
		t.Fatalf("%d fonts in the PDF, want the Latin and the CJK one", len(fonts))
	}
	var b strings.Builder
	font, lastY := "", ""
	op := regexp.MustCompile(`[\d.]+ ([\d.]+) TD|/(F\d+) [\d.]+ Tf|\[<([0-9A-F]*)>\] TJ`)
	for _, m := range op.FindAllStringSubmatch(pdf, -1) {
		switch {
		case m[1] != "":
			if lastY != "" && m[1] != lastY {
				b.WriteByte('\n')
			}
			lastY = m[1]
		case m[2] != "":
			font = m[2]
		default:
			for i := 0; i+4 <= len(m[3]); i += 4 {
				r, ok := fonts[font][m[3][i:i+4]]
				if !ok {
					t.Fatalf("glyph %s of font %s has no ToUnicode entry", m[3][i:i+4], font)
				}
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// TestItineraryMasksDocuments: an itinerary shows the passport numbers'
// last characters only, unless asked to show them; the e-ticket shows them.
func TestItineraryMasksDocuments(t *testing.T) {
	t.Parallel()
	read := func(kind string, show bool) string {
		tk := sampleTicket(t, i18n.EN, true)
		tk.ShowDocumentNumbers = show
		var buf bytes.Buffer
		if err := WriteTicket(&buf, kind, XLSX, tk); err != nil {
			t.Fatal(err)
		}
		f, err := excelize.OpenReader(&buf)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, _ := f.GetRows(f.GetSheetList()[0])
		var b strings.Builder
		for _, r := range rows {
			b.WriteString(strings.Join(r, " ") + "\n")
		}
		return b.String()
	}
	if got := read(Itinerary, false); strings.Contains(got, "E12345678") || !strings.Contains(got, "*****5678") || !strings.Contains(got, "*****6543") {
		t.Errorf("itinerary, masked by default:\n%s", got)
	}
	if got := read(Itinerary, true); !strings.Contains(got, "E12345678") {
		t.Errorf("itinerary with ShowDocumentNumbers:\n%s", got)
	}
	if got := read(ETicket, false); !strings.Contains(got, "E12345678") {
		t.Errorf("e-ticket:\n%s", got)
	}
	for in, want := range map[string]string{"E12345678": "*****5678", "AB12": "**12", "X": "*", "": ""} {
		if got := MaskDocumentNumber(in); got != want {
			t.Errorf("MaskDocumentNumber(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTicketCatalog keeps the codes the flight documents translate in every
// catalog, so a new one does not print as a raw code. (The lines keep their
// statuses' keys: each tests its own.)
func TestTicketCatalog(t *testing.T) {
	t.Parallel()
	var keys []string
	for _, c := range []string{supplier.CabinEconomy, supplier.CabinPremiumEconomy, "business", "premium_business", "first", "premium_first"} {
		keys = append(keys, "documents.cabin."+c)
	}
	for _, p := range []string{"adult", "child", "infant"} {
		keys = append(keys, "documents.paxType."+p)
	}
	for _, lang := range langs {
		for _, k := range keys {
			if !catalog.Has(lang, k) {
				t.Errorf("%s: %q missing", lang, k)
			}
		}
	}
}

// TestTicketBaggage: the e-ticket prints the allowance by the rule, in
// every language: pieces, pieces of a weight, or a weight alone (a
// weight-concept fare carries bags, it is not "no free checked bag").
func TestTicketBaggage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		b    supplier.Baggage
		want []string // in English; "" parts must be absent
		not  []string
	}{
		{"two pieces of 23 kg and a 7 kg cabin bag", supplier.Baggage{CheckedPieces: 2, CheckedKg: 23, CabinPieces: 1, CabinKg: 7},
			[]string{"Checked: 2 × 23 kg", "Cabin: 1 × 7 kg"}, []string{"No free"}},
		{"one piece, weight not stated", supplier.Baggage{CheckedPieces: 1}, []string{"Checked: 1 pc"}, []string{"Cabin"}},
		{"a weight-concept fare: 40 kg in all", supplier.Baggage{CheckedKg: 40, CabinKg: 5}, []string{"Checked: 40 kg in all", "Cabin: 5 kg in all"},
			[]string{"No free", "0 ×"}},
		{"nothing checked", supplier.Baggage{CabinPieces: 1}, []string{"No free checked bag", "Cabin: 1 pc"}, nil},
	} {
		for _, lang := range []string{"en", "zh-cn", "zh-tw"} {
			got := ticketText{lang: lang, t: translator(t, lang)}.baggage(c.b)
			if lang != "en" {
				if strings.Contains(got, "{{") || got == "" {
					t.Errorf("%s in %s: %q", c.name, lang, got)
				}
				continue
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s: %q lacks %q", c.name, got, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("%s: %q has %q", c.name, got, n)
				}
			}
		}
	}
}
