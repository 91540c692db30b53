package store

// IsPrepared reports whether s is prepared on db, for tests.
func (db *DB) IsPrepared(s *Statement) bool {
	v, ok := db.stmts.Load(s)
	return ok && v.(*prepared).stmt != nil
}

// Unprepare forgets db's prepared statements, so that a test sees them
// prepared again.
func (db *DB) Unprepare() { db.unprepare() }
