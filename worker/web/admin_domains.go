package web

import (
	"net/http"
	"strings"

	"arena/core"
	"arena/i18n"
	"arena/views"
	"arena/worker/server"
)

// adminDomainMessages are the message ids wording the refusals of an
// added domain, by code.
var adminDomainMessages = map[string]string{
	core.CodeInvalidField:         "admin.domains.error.invalid",
	core.CodeHostTaken:            "admin.domains.error.taken",
	core.CodeTooManyDomains:       "admin.domains.error.tooMany",
	core.CodeDomainProviderFailed: "admin.domains.error.provider",
}

// adminDomains is GET /admin/domains.
func (s *Site) adminDomains(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	s.adminRenderDomains(w, r, t, v, http.StatusOK, views.AdminDomains{Notice: adminNotice(r)})
}

func (s *Site) adminRenderDomains(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer, status int, p views.AdminDomains) {
	domains, err := s.srv.Directory().Domains(r.Context(), t.Arena.ID)
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	p.Verified = s.srv.DomainsVerified()
	if len(t.Arena.Hosts) > 0 {
		p.Target = t.Arena.Hosts[0]
	}
	for _, d := range domains {
		ad := views.AdminDomain{Hostname: d.Hostname, Status: d.Status, SSLStatus: d.SSLStatus, Active: d.Active(), CreatedAt: d.CreatedAt}
		for _, rec := range d.Verification {
			ad.Records = append(ad.Records, views.AdminDomainRecord{Type: rec.Type, Name: rec.Name, Value: rec.Value})
		}
		p.Domains = append(p.Domains, ad)
	}
	s.render(w, r, t, status, views.AdminDomainsPage(s.adminLayout(t, v, i18n.From(r.Context()).T("admin.domains.title")), p))
}

// adminAddDomain is POST /admin/domains: attaches a hostname (the admin
// API's rules) and shows it with the records to publish.
func (s *Site) adminAddDomain(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	hostname := strings.TrimSpace(r.PostFormValue("hostname"))
	_, err := s.srv.AddDomain(r.Context(), t.Arena, hostname)
	tr := i18n.From(r.Context())
	if id, ok := adminDomainMessages[adminErrorCode(err)]; ok {
		status := http.StatusConflict
		switch adminErrorCode(err) {
		case core.CodeInvalidField:
			status = http.StatusUnprocessableEntity
		case core.CodeDomainProviderFailed:
			status = http.StatusBadGateway
		}
		s.adminRenderDomains(w, r, t, v, status, views.AdminDomains{
			Hostname: hostname, Errors: views.AdminFieldErrors{"hostname": tr.T(id)},
			Notice: views.AdminNotice{Error: true, Text: tr.T("admin.domains.error.notAdded")},
		})
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/domains", "domain-added", "")
}

// adminRemoveDomain is POST /admin/domains/{hostname}/remove.
func (s *Site) adminRemoveDomain(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	tr := i18n.From(r.Context())
	err := s.srv.RemoveDomain(r.Context(), t.Arena, r.PathValue("hostname"))
	switch adminErrorCode(err) {
	case "":
	case core.CodeDomainNotFound:
		s.adminNotFound(w, r, t, v, tr.T("admin.domains.error.notFound", "Host", r.PathValue("hostname")))
		return
	case core.CodeDomainProviderFailed:
		s.adminRenderDomains(w, r, t, v, http.StatusBadGateway, views.AdminDomains{
			Notice: views.AdminNotice{Error: true, Text: tr.T(adminDomainMessages[core.CodeDomainProviderFailed])},
		})
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/domains", "domain-removed", "")
}
