package booking

import "database/sql"

// Head is what every booking is, whatever its line: its id, its booking
// number, and whose it is. Each line's booking embeds it, and the access
// rule reads whose it is from it (Owned).
type Head struct {
	ID            int64
	BookingNumber string
	AgencyID      int64
	// UserID is the user who booked it; 0 when no user did (an API key).
	UserID int64
}

// Owner is whose the booking is: its agency and the user who made it.
func (h Head) Owner() (agencyID, userID int64) { return h.AgencyID, h.UserID }

// Owned is a line's booking: one that says whose it is, as Head does.
type Owned interface {
	Owner() (agencyID, userID int64)
}

// Row is Head as a line's table stores it: every bookings table starts with
// these columns.
type Row struct {
	ID            int64         `db:"id"`
	BookingNumber string        `db:"booking_number"`
	AgencyID      int64         `db:"agency_id"`
	UserID        sql.NullInt64 `db:"user_id"`
}

// Head is the booking the row heads.
func (r Row) Head() Head {
	return Head{ID: r.ID, BookingNumber: r.BookingNumber, AgencyID: r.AgencyID, UserID: r.UserID.Int64}
}
