package web

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/templates"
)

const flashCookie = "flash"

var flashEntry = regexp.MustCompile(`^(success|error|info):[A-Za-z0-9_.-]{1,64}$`)

// redirectWithFlash redirects and leaves a message for the next page.
func (s *Server) redirectWithFlash(w http.ResponseWriter, r *http.Request, to string, f templates.Flash) {
	s.setFlash(w, f)
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// setFlash leaves a message for the next page.
func (s *Server) setFlash(w http.ResponseWriter, f templates.Flash) {
	http.SetCookie(w, &http.Cookie{
		Name: flashCookie, Value: f.Kind + ":" + f.Key, Path: "/", MaxAge: 60,
		HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode,
	})
}

// takeFlashes reads and clears the flash cookie. Only catalog keys travel in
// it, so a forged cookie can at worst show one of our own messages.
func (s *Server) takeFlashes(w http.ResponseWriter, r *http.Request) []templates.Flash {
	c, err := r.Cookie(flashCookie)
	if err != nil {
		return nil
	}
	http.SetCookie(w, &http.Cookie{Name: flashCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode})
	if !flashEntry.MatchString(c.Value) {
		return nil
	}
	kind, key, _ := strings.Cut(c.Value, ":")
	if !i18n.Has(r.Context(), key) {
		return nil
	}
	return []templates.Flash{{Kind: kind, Key: key}}
}
