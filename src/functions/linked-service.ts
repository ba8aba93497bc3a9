/**
 * The load service's bridge to Excel: the request (a JSON string) answered by the one engine
 * (src/shared/linked-company.ts). A request FIRMA cannot read is the one failure the page gives the
 * whole request: "it should throw a CustomFunctions.Error with CustomFunctions.ErrorCode.notAvailable.
 * This causes Excel to show #CONNECT! to the user"
 * (https://learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-linked-entity-cell-values).
 * A company that cannot be loaded answers its own entity there, so one bad id never fails the rest.
 */
import { getEngine } from "../shared/engine-instance";

/** The load service; its work (linked-company.ts) is a chunk of its own, loaded when Excel first calls it. */
export async function loadService(request: unknown): Promise<unknown> {
  try {
    const { loadCompanies } = await import(/* webpackChunkName: "linked" */ "../shared/linked-company");
    return await loadCompanies(request, await getEngine());
  } catch {
    throw new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable);
  }
}
