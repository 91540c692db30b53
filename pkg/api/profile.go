package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/upload"
)

// AvatarAnswer is the answer of PUT /base/v2/me/avatar.
type AvatarAnswer struct {
	// Avatar is the path of the new avatar image
	// (/base/v2/users/{id}/avatar), as userInfo.avatar gives it.
	Avatar string `json:"avatar"`
}

// ConfigValue documents the body of PUT /base/v2/me/config/{key}: the bare
// JSON value of the setting — a list of codes for cities and countries, a
// list of passenger ids for passengers, a string for defaultRegion,
// dateFormat and timeZone.
type ConfigValue any

func profilePaging(r *http.Request) profile.Paging {
	page, size := pageFromQuery(r)
	return profile.Paging{Page: page, PageSize: size}
}

func registerProfile(rt *Router, s Services) {
	notFound := []int{fault.CodeNotFound}

	rt.Handle("PUT /base/v2/me", Operation{
		ID: "updateMe", Tag: "profile", UserOnly: true, SelfAudited: true,
		Summary: "Update the logged-in user's profile (nickname, mobile, area code); answers as GET /base/v2/me",
		Request: profile.Update{}, Response: Me{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req profile.Update
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		p := Principal(r)
		if err := s.Profile.UpdateMe(r.Context(), p, req, Meta(r)); err != nil {
			return nil, err
		}
		return BuildMe(r, s, p)
	})

	rt.Handle("PUT /base/v2/me/avatar", Operation{
		ID: "setMyAvatar", Tag: "profile", UserOnly: true, SelfAudited: true,
		Summary:  "Upload the user's avatar as the raw request body: PNG, JPEG, GIF or WebP (type read from the content), at most 2 MB",
		Response: AvatarAnswer{}, RawBody: append(slices.Clone(upload.Images), "application/octet-stream"),
		Errors: []int{fault.CodeBodyTooLarge},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		// One byte over the limit tells "too large" from "exactly 2 MB".
		// The server-wide body limit (http.max_body_bytes) applies first.
		data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, profile.MaxAvatarBytes+1))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				// The reader allows one byte more; the limit is the avatar's.
				return nil, fault.TooLarge(profile.MaxAvatarBytes)
			}
			return nil, fault.Malformed(err)
		}
		p := Principal(r)
		if err := s.Profile.SetAvatar(r.Context(), p, data, Meta(r)); err != nil {
			return nil, err
		}
		return AvatarAnswer{Avatar: "/base/v2/users/" + strconv.FormatInt(p.UserID, 10) + "/avatar"}, nil
	})

	rt.HandleRaw("GET /base/v2/users/{id}/avatar", Operation{
		ID: "getUserAvatar", Tag: "profile", UserOnly: true,
		Summary: "A user's avatar image (the raw bytes with their image content type, not an envelope); users of the caller's agency and its sub-agencies only",
		Errors:  notFound, Produces: upload.Images,
	}, func(w http.ResponseWriter, r *http.Request) error {
		id, err := PathID(r, "id")
		if err != nil {
			return err
		}
		data, typ, err := s.Profile.Avatar(r.Context(), Principal(r), id)
		if err != nil {
			return err
		}
		inlineImage(w, typ, data)
		return nil
	})

	rt.Handle("PUT /base/v2/me/config/{key}", Operation{
		ID: "setMyConfig", Tag: "profile", UserOnly: true, SelfAudited: true,
		Summary: "Set a personal setting; key is cities (non-empty list of 3-letter IATA codes), countries (non-empty list of ISO alpha-2 codes), " +
			"passengers (non-empty list of the agency's often-used passenger ids), defaultRegion (1–4 digits) or dateFormat " +
			"(yyyy-MM-dd, dd/MM/yyyy, MM/dd/yyyy, dd-MM-yyyy, yyyy/MM/dd) or timeZone (an IANA name such as Asia/Shanghai, \"\" for the agency's zone); the body is the bare JSON value; answers as GET /base/v2/me",
		Request: new(ConfigValue), Response: Me{},
		Errors: notFound,
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var raw json.RawMessage
		if err := Decode(r, &raw); err != nil {
			return nil, err
		}
		p := Principal(r)
		if err := s.Profile.SetConfig(r.Context(), p, r.PathValue("key"), raw, Meta(r)); err != nil {
			return nil, err
		}
		return BuildMe(r, s, p)
	})

	rt.Handle("GET /base/v2/often-used-passengers", Operation{
		ID: "listPassengers", Tag: "profile", UserOnly: true,
		Summary:  "The agency's often-used passengers, by name",
		Response: profile.PassengerPage{},
		Query:    append([]Param{{Name: "keyword", Type: "string", Description: "part of the surname, given name, SURNAME/GIVEN or document number"}}, pagingParams...),
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return s.Profile.FindPassengers(r.Context(), Principal(r), r.URL.Query().Get("keyword"), profilePaging(r))
	})

	rt.Handle("POST /base/v2/often-used-passengers", Operation{
		ID: "createPassenger", Tag: "profile", UserOnly: true, SelfAudited: true, Status: http.StatusCreated,
		Summary: "Add an often-used passenger to the agency (at most 30); surname A–Z only, birthday not after today, " +
			"nationality ISO alpha-2, document type idcard, passport, chinese-passport, eep, hk-macao-return-permit, hk-macao-travel-permit, " +
			"taiwan-compatriot-permit, taiwan-resident-mainland-permit, foreigner-residence-permit or hk-macau-permit",
		Request: profile.PassengerInput{}, Response: profile.Passenger{},
		Errors: []int{fault.CodeConflict},
	}, withBodyAudited(s.Profile.CreatePassenger))

	agencyRecordRoutes(rt, "/base/v2/often-used-passengers", "Passenger", s.Profile.UpdatePassenger, s.Profile.DeletePassenger,
		"Replace one of the agency's often-used passengers (same rules as creating)",
		"Delete one of the agency's often-used passengers, with the member cards recorded for them")

	rt.Handle("GET /base/v2/member-cards", Operation{
		ID: "listMemberCards", Tag: "profile", UserOnly: true,
		Summary:  "The agency's airline member cards",
		Response: profile.CardPage{}, Query: pagingParams,
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return s.Profile.Cards(r.Context(), Principal(r), profilePaging(r))
	})

	rt.Handle("POST /base/v2/member-cards", Operation{
		ID: "createMemberCard", Tag: "profile", UserOnly: true, SelfAudited: true, Status: http.StatusCreated,
		Summary: "Add an airline member card (2-character IATA airline, number of 4–30 letters or digits, holder name, optional passengerId of the agency)",
		Request: profile.CardInput{}, Response: profile.Card{},
	}, withBodyAudited(s.Profile.CreateCard))

	agencyRecordRoutes(rt, "/base/v2/member-cards", "MemberCard", s.Profile.UpdateCard, s.Profile.DeleteCard,
		"Replace one of the agency's member cards", "Delete one of the agency's member cards")

	registerTravellers(rt, s)
}

// agencyRecordRoutes registers the replace and delete routes of one kind
// of record the caller's agency keeps (an often-used passenger, a member
// card): any user of the agency may, and the step audits itself.
func agencyRecordRoutes[In, V any](rt *Router, path, name string,
	update func(context.Context, auth.Principal, int64, In, auth.Meta) (V, error),
	remove func(context.Context, auth.Principal, int64, auth.Meta) error,
	updateSummary, deleteSummary string) {
	var in In
	var v V
	rt.Handle("PUT "+path+"/{id}", Operation{ID: "update" + name, Tag: "profile", UserOnly: true, SelfAudited: true,
		Summary: updateSummary, Request: in, Response: v, Errors: []int{fault.CodeNotFound}}, onIDWithAudited(update))
	rt.Handle("DELETE "+path+"/{id}", Operation{ID: "delete" + name, Tag: "profile", UserOnly: true, SelfAudited: true,
		Summary: deleteSummary, Errors: []int{fault.CodeNotFound}}, onIDAudited(noAnswer(remove)))
}

// inlineImage answers an image stored for the caller (a logo, an avatar):
// shown in place, private, checked again on every use.
func inlineImage(w http.ResponseWriter, contentType string, data []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(data)))
	h.Set("Cache-Control", "private, no-cache")
	h.Set("Content-Disposition", "inline")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(data)
}
