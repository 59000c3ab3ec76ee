import type { Organization } from "../../src/core/service/types.ts";

const APP_URL = "https://app.gitbook.com";
const API_URL = "https://api.gitbook.com/v1";

/** An organization as answered: the default links (GitBook's hosts) become the emulator's own. */
export function withOwnLinks(org: Organization, links: { baseUrl: string; appUrl: string }): Organization {
  const own = (url: string, host: string, base: string) =>
    url.startsWith(host) ? base + url.slice(host.length) : url;
  return {
    ...org,
    urls: {
      ...org.urls,
      location: own(org.urls.location, API_URL, `${links.baseUrl}/v1`),
      app: own(org.urls.app, APP_URL, links.appUrl),
    },
  };
}

/**
 * The organization seeded by default. Every field of the interface is filled, plus those the published
 * description requires (`mergeRules`, `trial.count`, the full `permissions`), except `blocked`: its
 * presence means the organization is blocked, which a demo organization is not.
 */
export function defaultOrganization(): Organization {
  return completeOrganization({
    object: "organization",
    id: "demo-org",
    title: "Demo",
    emailDomains: ["example.com"],
    urls: { location: `${API_URL}/orgs/demo-org`, app: `${APP_URL}/o/demo-org` },
  });
}

/** Fills the fields an organization seeded by a test or an `--orgs` file leaves out. */
export function completeOrganization(partial: Partial<Organization> & { id: string }): Organization {
  const id = partial.id;
  const filled = {
    object: "organization",
    title: id.length >= 2 ? id : `${id} organization`,
    createdAt: "2024-01-01T00:00:00.000Z",
    emailDomains: [],
    hostname: id.slice(0, 32).padEnd(3, "x"),
    type: "business",
    useCase: "internalDocs",
    communityType: "nonProfit",
    defaultRole: "admin",
    defaultContent: { type: "site", site: `site_${id}` },
    sso: false,
    ai: true,
    inviteLinks: true,
    plan: "free_2024",
    billing: {
      interval: "monthly",
      endDate: "2099-01-01T00:00:00.000Z",
      hasPaymentFailed: false,
      canCheckout: true,
      isScheduledToCancel: false,
      pricing: {
        members: { plus_2024: { monthly: 0, yearly: 0 }, pro_2024: { monthly: 0, yearly: 0 } },
        sites: { premium: { monthly: 0, yearly: 0 }, ultimate: { monthly: 0, yearly: 0 } },
      },
      usageAddons: {},
      canChangeInterval: true,
      canUseSAML: false,
      creditsBundle: null,
      aiCreditAlertThreshold: null,
    },
    mergeRules: { type: "none" },
    trial: { status: "notapplicable", count: 0, endDate: "2024-01-15T00:00:00.000Z", decision: "downgrade" },
    customHostname: `docs.${id}.example`,
    internal_isOnNewTrial: false,
    internal_billingMigration: {
      deadline: "2099-01-01T00:00:00.000Z",
      discountPercent: 0,
      discountEndDate: "2099-01-01T00:00:00.000Z",
    },
    permissions: {
      view: true,
      access: true,
      admin: true,
      ownTeam: true,
      createContent: true,
      createOpenAPISpec: true,
      viewBilling: true,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
      listInstallations: true,
      installIntegration: true,
    },
    ...partial,
    urls: {
      location: `${API_URL}/orgs/${encodeURIComponent(id)}`,
      app: `${APP_URL}/o/${encodeURIComponent(id)}`,
      logo: `${APP_URL}/logos/${encodeURIComponent(id)}.png`,
      ...partial.urls,
    },
  };
  return filled as Organization;
}

/** Organizations whose email domains contain `domain`, compared without regard to case. */
export function organizationsForDomain(
  organizations: readonly Organization[],
  domain: string,
): Organization[] {
  const wanted = domain.toLowerCase();
  return organizations.filter((org) => (org.emailDomains ?? []).some((d) => d.toLowerCase() === wanted));
}
