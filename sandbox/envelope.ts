/**
 * Answers as data (Result), and how each envelope variant writes them. "standard" is the
 * project's chosen shape (docs/spec-open-points.md, Sandbox column); "alt", "ro" and "bare" are
 * other shapes the client's tolerant reader must accept (same page, Client column). Shapes the
 * spec documents itself (profile, one-year and range financial objects) are the same in all.
 */
import { EnvelopeVariant } from "./config";
import type { CountyRow } from "./counties";
import type { RankingRow, RankingSummary } from "./rankings";

type Json = Record<string, unknown>;

export interface Paging {
  page: number;
  limit: number;
  total: number;
}

export type Result =
  | { kind: "document"; status: 200; body: Json }
  | { kind: "batch"; status: 200; items: Json[] }
  | { kind: "search"; status: 200; items: Json[]; paging: Paging }
  | { kind: "rankings"; status: 200; items: RankingSummary[] }
  | { kind: "ranking"; status: 200; head: Json; items: RankingRow[]; paging: Paging }
  | { kind: "counties"; status: 200; items: CountyRow[] }
  | { kind: "error"; status: number; code: string; message: string };

export interface Rendered {
  status: number;
  contentType: string;
  body: string;
}

export function error(status: number, code: string, message: string): Result {
  return { kind: "error", status, code, message };
}

function pages(p: Paging): number {
  return Math.ceil(p.total / p.limit);
}

/** "+12,5%", "-3,0%", "0,0%". */
function percentText(v: number | null): string | null {
  if (v === null) return null;
  return `${v > 0 ? "+" : ""}${v.toFixed(1).replace(".", ",")}%`;
}

/** ro: VAT flag as DA/NU (O8). */
function daNu(item: Json): Json {
  return "platitor_tva" in item ? { ...item, platitor_tva: item.platitor_tva ? "DA" : "NU" } : item;
}

function standard(r: Result): unknown {
  switch (r.kind) {
    case "document":
      return r.body;
    case "batch":
      return r.items;
    case "search":
      return { data: r.items, pagination: { ...r.paging, pages: pages(r.paging) } };
    case "rankings":
    case "counties":
      return { data: r.items };
    case "ranking":
      return { ...r.head, data: r.items, pagination: { ...r.paging, pages: pages(r.paging) } };
    case "error":
      return { error: { code: r.code, message: r.message } };
  }
}

function alt(r: Result): unknown {
  switch (r.kind) {
    case "document":
      return r.body;
    case "batch":
      return { items: r.items };
    case "search":
      return {
        items: r.items.map((i) => ({
          cui: i.cui,
          name: i.denumire,
          county: i.judet,
          city: i.localitate,
          status: i.stare,
          caen: i.caen_principal,
          registration_number: i.j_cod,
        })),
        total: r.paging.total,
        page: r.paging.page,
        per_page: r.paging.limit,
      };
    case "rankings":
      return { items: r.items.map(({ titlu, ...rest }) => ({ ...rest, title: titlu })) };
    case "ranking": {
      const { titlu, ...head } = r.head;
      return {
        ...head,
        title: titlu,
        entries: r.items.map((e) => ({
          position: e.pozitie,
          cui: e.cui,
          denumire: e.denumire,
          value: e.valoare,
          valoare_anterioara: e.valoare_anterioara,
          change: e.variatie,
        })),
        meta: {
          current_page: r.paging.page,
          page_size: r.paging.limit,
          total_count: r.paging.total,
          total_pages: pages(r.paging),
        },
      };
    }
    case "counties":
      return {
        items: r.items.map((c) => ({
          code: c.cod,
          name: c.denumire,
          cod_onrc: c.cod_onrc,
          active_companies: c.firme_active,
        })),
      };
    case "error":
      return { message: r.message, code: r.code };
  }
}

function ro(r: Result): unknown {
  const paginare = (p: Paging) => ({
    pagina: p.page,
    pe_pagina: p.limit,
    total: p.total,
    pagini: pages(p),
  });
  switch (r.kind) {
    case "document":
      return daNu(r.body);
    case "batch":
      return { rezultate: r.items.map(daNu) };
    case "search":
      return { rezultate: r.items, paginare: paginare(r.paging) };
    case "rankings":
      return { topuri: r.items.map(({ titlu, ...rest }) => ({ ...rest, nume: titlu })) };
    case "ranking": {
      const { titlu, ...head } = r.head;
      return {
        ...head,
        nume: titlu,
        clasament: r.items.map((e) => ({
          loc: e.pozitie,
          cui: e.cui,
          denumire: e.denumire,
          valoare: e.valoare,
          valoare_anterioara: e.valoare_anterioara,
          variatie_anuala: percentText(e.variatie),
        })),
        paginare: paginare(r.paging),
      };
    }
    case "counties":
      return {
        judete: r.items.map((c) => ({
          cod_judet: c.cod,
          nume: c.denumire,
          cod_onrc: c.cod_onrc,
          numar_firme_active: c.firme_active,
        })),
      };
    case "error":
      return { eroare: r.message, cod: r.code };
  }
}

function bare(r: Result): unknown {
  switch (r.kind) {
    case "document":
      return r.body;
    case "batch":
    case "search":
    case "rankings":
    case "ranking":
    case "counties":
      return r.items;
    case "error":
      return r.message;
  }
}

const WRITERS: Record<EnvelopeVariant, (r: Result) => unknown> = { standard, alt, ro, bare };

export function render(r: Result, variant: EnvelopeVariant): Rendered {
  if (r.kind === "error" && variant === "bare") {
    return { status: r.status, contentType: "text/plain; charset=utf-8", body: r.message };
  }
  return {
    status: r.status,
    contentType: "application/json; charset=utf-8",
    body: JSON.stringify(WRITERS[variant](r)),
  };
}
