package booking

import (
	"strings"

	"github.com/voyage/voyage/pkg/profile"
)

// Passenger is one flight traveller (spec §3 Passenger), the same on a
// flight order and a group's passenger list.
type Passenger struct {
	Type             string `json:"type" jsonschema:"required,enum=adult,enum=child,enum=infant"`
	Surname          string `json:"surname" jsonschema:"required"`
	GivenName        string `json:"givenName" jsonschema:"required"`
	Gender           string `json:"gender" jsonschema:"required,enum=male,enum=female"`
	Birthday         string `json:"birthday" jsonschema:"required,format=date" jsonschema_description:"YYYY-MM-DD"`
	Nationality      string `json:"nationality" jsonschema:"required" jsonschema_description:"ISO 3166-1 alpha-2"`
	DocumentType     string `json:"documentType" jsonschema:"required"`
	DocumentNumber   string `json:"documentNumber" jsonschema:"required"`
	DocumentExpiry   string `json:"documentExpiry" jsonschema:"required,format=date" jsonschema_description:"YYYY-MM-DD"`
	DocumentIssuedAt string `json:"documentIssuedAt,omitempty" jsonschema_description:"passport issuing place"`
	Phone            string `json:"phone,omitempty"`
	Email            string `json:"email,omitempty"`
	FrequentFlyer    string `json:"frequentFlyer,omitempty"`
	FFAirline        string `json:"ffAirline,omitempty"`
	// TicketNumber is set once the ticket is issued.
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
	Name  string `json:"name" jsonschema:"required"`
	Email string `json:"email" jsonschema:"required"`
	Phone string `json:"phone" jsonschema:"required"`
}
