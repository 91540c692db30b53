package api

import (
	"net/http"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/webhook"
)

// WebhookSecret is an agency's new signing secret.
type WebhookSecret struct {
	Secret string `json:"secret" jsonschema_description:"HMAC-SHA256 key of the X-Voyage-Signature header; the previous one stops working at once"`
}

// registerWebhooks adds the delivery log, redelivery and secret rotation for
// those who manage an agency (the agency routes' rule), and the log of the
// caller's own agency.
func registerWebhooks(rt *Router, s Services) {
	if s.Webhooks == nil {
		return
	}
	// managed is the {id} of the path when the caller manages that agency;
	// any other agency is not found.
	managed := func(r *http.Request) (int64, error) {
		id, err := PathID(r, "id")
		if err != nil {
			return 0, err
		}
		a, err := s.AgencyService.Managed(r.Context(), Principal(r), id)
		if err != nil {
			return 0, err
		}
		audit.Note(r.Context(), "agency", a.Name)
		return id, nil
	}
	page := func(r *http.Request, agencyID int64) (any, error) {
		p, size := pageFromQuery(r)
		items, total, err := s.Webhooks.Deliveries(r.Context(), agencyID, p, size)
		if err != nil {
			return nil, err
		}
		return WebhookDeliveryPage{Items: items, Total: total, Page: p, PageSize: size}, nil
	}

	rt.Handle("GET /base/v2/agencies/{id}/webhooks", Operation{
		ID: "listAgencyWebhooks", Tag: "webhooks", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary:  "A managed agency's webhook deliveries (booking and change notifications), newest first",
		Response: WebhookDeliveryPage{}, Query: pagingParams, Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := managed(r)
		if err != nil {
			return nil, err
		}
		return page(r, id)
	})

	rt.Handle("POST /base/v2/agencies/{id}/webhooks/{deliveryId}/redeliver", Operation{
		ID: "redeliverAgencyWebhook", Tag: "webhooks", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary:  "Send a failed webhook delivery of a managed agency again (same body and delivery id, signed anew)",
		Response: webhook.Delivery{}, Errors: []int{fault.CodeNotFound, fault.CodeConflict},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := managed(r)
		if err != nil {
			return nil, err
		}
		deliveryID, err := PathID(r, "deliveryId")
		if err != nil {
			return nil, err
		}
		return s.Webhooks.Redeliver(r.Context(), id, deliveryID)
	})

	rt.Handle("POST /base/v2/agencies/{id}/webhooks/secret", Operation{
		ID: "rotateAgencyWebhookSecret", Tag: "webhooks", Role: auth.RoleFinance, Allow: auth.Subject.ManagesAgencies,
		Summary:  "Replace a managed agency's webhook signing secret; the answer carries the new one",
		Response: WebhookSecret{}, Errors: []int{fault.CodeNotFound},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := managed(r)
		if err != nil {
			return nil, err
		}
		secret, err := s.Webhooks.RotateSecret(r.Context(), id)
		if err != nil {
			return nil, err
		}
		return WebhookSecret{Secret: secret}, nil
	})

	rt.Handle("GET /base/v2/webhooks", Operation{
		ID: "listWebhooks", Tag: "webhooks", Role: auth.RoleFinance,
		Summary:  "The caller's own webhook deliveries, newest first",
		Response: WebhookDeliveryPage{}, Query: pagingParams,
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return page(r, Principal(r).AgencyID)
	})
}
