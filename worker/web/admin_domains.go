package web

import (
	"net/http"
	"strings"

	"arena/core"
	"arena/views"
	"arena/worker/server"
)

// adminDomainMessages word the refusals of an added domain, by code.
var adminDomainMessages = map[string]string{
	core.CodeInvalidField:         "Enter a hostname such as play.example.com (not an IP address).",
	core.CodeHostTaken:            "This hostname already serves an arena.",
	core.CodeTooManyDomains:       "This arena has as many custom domains as it may; remove one first.",
	core.CodeDomainProviderFailed: "The domain provider refused the hostname or could not be reached; try again later.",
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
	s.render(w, r, t, status, views.AdminDomainsPage(s.adminLayout(t, v, "Custom domains"), p))
}

// adminAddDomain is POST /admin/domains: attaches a hostname (the admin
// API's rules) and shows it with the records to publish.
func (s *Site) adminAddDomain(w http.ResponseWriter, r *http.Request, t *server.Tenant, v *views.Viewer) {
	if !s.adminParseForm(w, r, t, v) {
		return
	}
	hostname := strings.TrimSpace(r.PostFormValue("hostname"))
	_, err := s.srv.AddDomain(r.Context(), t.Arena, hostname)
	if msg, ok := adminDomainMessages[adminErrorCode(err)]; ok {
		status := http.StatusConflict
		switch adminErrorCode(err) {
		case core.CodeInvalidField:
			status = http.StatusUnprocessableEntity
		case core.CodeDomainProviderFailed:
			status = http.StatusBadGateway
		}
		s.adminRenderDomains(w, r, t, v, status, views.AdminDomains{
			Hostname: hostname, Errors: views.AdminFieldErrors{"hostname": msg},
			Notice: views.AdminNotice{Error: true, Text: "The domain was not added: see the marked field."},
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
	err := s.srv.RemoveDomain(r.Context(), t.Arena, r.PathValue("hostname"))
	switch adminErrorCode(err) {
	case "":
	case core.CodeDomainNotFound:
		s.adminNotFound(w, r, t, v, "There is no custom domain "+r.PathValue("hostname")+".")
		return
	case core.CodeDomainProviderFailed:
		s.adminRenderDomains(w, r, t, v, http.StatusBadGateway, views.AdminDomains{
			Notice: views.AdminNotice{Error: true, Text: adminDomainMessages[core.CodeDomainProviderFailed]},
		})
		return
	}
	if err != nil {
		s.fail(w, r, t, err)
		return
	}
	adminRedirect(w, r, "/admin/domains", "domain-removed", "")
}
