package mrz_test

import (
	"fmt"
	"time"

	"github.com/voyage/voyage/pkg/mrz"
)

// OCR text of a passport page: a heading, then the zone with the document
// number's 0 read as O.
func ExampleParseAt() {
	text := "UTOPIA PASSPORT\n" +
		"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\n" +
		"L8989O2C36UTO7408122F1204159ZE184226B<<<<<10\n"
	r, err := mrz.ParseAt(text, time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Type, r.TravelDocument, r.Surname+",", r.GivenNames, r.Birthday, r.Gender, r.Expiry, r.Nationality)
	for _, c := range r.Corrections {
		fmt.Printf("%s: %s -> %s (verified %v)\n", c.Field, c.From, c.To, c.Verified)
	}
	fmt.Println(r.Confidence)
	// Output:
	// passport L898902C3 ERIKSSON, ANNA MARIA 1974-08-12 female 2012-04-15 UTO
	// travel_document: O -> 0 (verified true)
	// 0.98
}
