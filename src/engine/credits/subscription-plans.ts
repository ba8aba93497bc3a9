import { isPlanName, type PlanName } from "../../api/types";

/** A plan's limits as the spec states them (`company-data-service-v4.md`, Limits). `null` = no limit. */
export interface PlanLimits {
  name: PlanName;
  label: string;
  dailyCalls: number | null;
  monthlyCredits: number | null;
  /** Years of financial history, the latest year counting as the first (O15). */
  historyYears: number | null;
}

export const PLANS: Readonly<Record<PlanName, PlanLimits>> = {
  free: { name: "free", label: "Free", dailyCalls: 10, monthlyCredits: null, historyYears: 1 },
  pro: { name: "pro", label: "Pro", dailyCalls: null, monthlyCredits: 4000, historyYears: 5 },
  business: { name: "business", label: "Business", dailyCalls: null, monthlyCredits: 20000, historyYears: 10 },
  enterprise: { name: "enterprise", label: "Enterprise", dailyCalls: null, monthlyCredits: null, historyYears: null },
};

export { isPlanName };
