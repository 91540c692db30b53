package booking

import (
	"strings"

	"github.com/voyage/voyage/pkg/profile"
)

// Passenger is one flight traveller, the same on a flight order and a
// group's passenger list.
type Passenger struct {
	// Type is the passenger type by age on the day of the first flight:
	// adult (12 or older), child (2 to 11) or infant (under 2, on an
	// adult's lap).
	Type string `json:"type" jsonschema:"required,enum=adult,enum=child,enum=infant"`
	// Surname is the family name as on the travel document, in letters A
	// to Z (kept upper-case).
	Surname string `json:"surname" jsonschema:"required"`
	// GivenName is the given names as on the travel document (kept
	// upper-case), at most 50 characters.
	GivenName string `json:"givenName" jsonschema:"required"`
	// Gender is male or female.
	Gender      string `json:"gender" jsonschema:"required,enum=male,enum=female"`
	Birthday    string `json:"birthday" jsonschema:"required,format=date" jsonschema_description:"YYYY-MM-DD"`
	Nationality string `json:"nationality" jsonschema:"required" jsonschema_description:"ISO 3166-1 alpha-2"`
	// DocumentType is the travel document's code: idcard (national ID
	// card), passport, chinese-passport, eep (exit-entry permit),
	// hk-macao-return-permit, hk-macao-travel-permit,
	// taiwan-compatriot-permit, taiwan-resident-mainland-permit,
	// foreigner-residence-permit or hk-macau-permit. A fare's
	// restrictions may accept only some, and a flight order takes an ID
	// card only on flights within mainland China.
	DocumentType string `json:"documentType" jsonschema:"required"`
	// DocumentNumber is the travel document's number: 1 to 30 letters and
	// digits (kept upper-case).
	DocumentNumber   string `json:"documentNumber" jsonschema:"required"`
	DocumentExpiry   string `json:"documentExpiry" jsonschema:"required,format=date" jsonschema_description:"YYYY-MM-DD"`
	DocumentIssuedAt string `json:"documentIssuedAt,omitempty" jsonschema_description:"passport issuing place"`
	// Phone is the passenger's phone number (an optional +, then 5 to 20
	// digits, spaces or dashes); optional.
	Phone string `json:"phone,omitempty"`
	// Email is the passenger's email address; optional.
	Email string `json:"email,omitempty"`
	// FrequentFlyer is the passenger's frequent-flyer number (4 to 20
	// letters and digits), given together with ffAirline; optional.
	FrequentFlyer string `json:"frequentFlyer,omitempty"`
	// FFAirline is the two-character IATA code of the airline whose
	// programme frequentFlyer belongs to; optional.
	FFAirline string `json:"ffAirline,omitempty"`
	// TicketNumber is the passenger's ticket number, set once the ticket is
	// issued.
	TicketNumber string `json:"ticketNumber,omitempty"`
}

// Normalize puts a passenger in stored form (upper-case names and codes),
// by the profile's rules for a traveller.
func (p Passenger) Normalize() Passenger {
	in := profile.PassengerInput{Surname: p.Surname, GivenName: p.GivenName, Type: p.Type, Gender: p.Gender, Birthday: p.Birthday,
		Nationality: p.Nationality, Phone: p.Phone, Email: p.Email, DocumentType: p.DocumentType, DocumentNumber: p.DocumentNumber,
		DocumentExpiry: p.DocumentExpiry, DocumentIssuedAt: p.DocumentIssuedAt}.Normalize()
	return Passenger{Type: in.Type, Surname: in.Surname, GivenName: in.GivenName, Gender: in.Gender, Birthday: in.Birthday,
		Nationality: in.Nationality, DocumentType: in.DocumentType, DocumentNumber: in.DocumentNumber, DocumentExpiry: in.DocumentExpiry,
		DocumentIssuedAt: in.DocumentIssuedAt, Phone: in.Phone, Email: in.Email,
		FrequentFlyer: strings.ToUpper(strings.TrimSpace(p.FrequentFlyer)), FFAirline: strings.ToUpper(strings.TrimSpace(p.FFAirline))}
}

// Contact is who the supplier and Voyage reach about a booking.
type Contact struct {
	// Name is the contact person's name, at most 100 characters.
	Name string `json:"name" jsonschema:"required"`
	// Email is the contact's email address.
	Email string `json:"email" jsonschema:"required"`
	// Phone is the contact's phone number: an optional +, then 5 to 20
	// digits, spaces or dashes.
	Phone string `json:"phone" jsonschema:"required"`
}
