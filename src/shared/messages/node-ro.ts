/**
 * What only the Node surfaces say, in Romanian: `firma refresh` (cli.*, xlsx.*), `firma match`
 * (match.*), `firma serve`
 * (serve.*, custody.*), `firma users` and `firma audit` (users.*, audit.*). Kept apart from ro.ts so
 * that the add-in's startup scripts do not carry them; node.ts joins the two for those surfaces.
 * English is in node-en.ts, under the same keys; the conventions are ro.ts's.
 */
import { alertRo } from "./alert-ro";
import { watchRo } from "./watch-ro";

export const nodeRo = {
  ...alertRo,
  ...watchRo,
  // cli: firma --help, in the language of --lang or LANG
  "cli.help.program": "FIRMA: date despre firme românești în registre Excel",
  "cli.help.refresh": "actualizează valorile formulelor FIRMA dintr-un .xlsx, fără Excel",
  "cli.help.book": "registrul de actualizat",
  "cli.help.key": "cheia API (implicit: FIRMA_API_KEY)",
  "cli.help.baseUrl": "adresa serviciului (implicit: FIRMA_BASE_URL)",
  "cli.help.out": "fișierul rezultat (implicit: <nume>.refreshed.xlsx alături)",
  "cli.help.inPlace": "suprascrie fișierul de intrare",
  "cli.help.dryRun": "doar estimează costul, fără apeluri și fără scriere",
  "cli.help.maxCredits": "buget: niciun apel peste atâtea credite; celulele rămase își păstrează valorile",
  "cli.help.plan": "planul dvs., pentru verificarea anilor fără cost",
  "cli.help.cacheDir": "dosarul cache-ului, cu fișierul cache.sqlite (implicit {dir})",
  "cli.help.noCache": "fără cache pe disc",
  "cli.help.noProgress": "fără bară de progres",
  "cli.help.lang": "limba mesajelor (implicit: după LANG)",
  "cli.help.valuesOnly": "formulele FIRMA înlocuite cu valorile lor (pentru LibreOffice, Google Sheets)",
  "cli.help.csv":
    "scrie și foaia cu celule FIRMA ca CSV (un text care începe cu =, +, - sau @ primește un ' în față, ca niciun program de calcul tabelar să nu-l ruleze ca formulă)",
  "cli.help.changes":
    "scrie ca CSV ce s-a schimbat la firme (stare, TVA, denumire, adresă; un text care începe cu =, +, - sau @ primește un ' în față)",
  "cli.help.force": "aduce din nou și răspunsurile din cache (după estimare)",
  "cli.help.maxAge": "răspunsurile mai vechi de atâtea zile se aduc din nou",
  "cli.help.json": "la final, un obiect JSON cu rezultatul",
  "cli.help.verbose": "listează celulele nerecalculate",
  "cli.help.help": "arată acest ajutor",
  "cli.help.otherCommands": "Alte comenzi (fiecare cu --help):",
  "cli.help.badWhole": "un număr întreg ≥ 0",
  "cli.help.badPlan": "free, pro, business sau enterprise",
  "cli.help.helpCommand": "arată ajutorul unei comenzi",
  "cli.help.example":
    "Exemple:\n  firma refresh registru.xlsx --key CHEIA\n  firma match clienti.xlsx --column B --key CHEIA\n  firma refresh --help\n  firma match --help",
  "cli.help.examples":
    "Exemple:\n  firma refresh registru.xlsx --key CHEIA                 scrie registru.refreshed.xlsx alături\n  firma refresh registru.xlsx --dry-run                   doar estimarea, fără cost\n  firma refresh registru.xlsx --in-place --max-credits 50 cel mult 50 de credite\n  FIRMA_API_KEY=CHEIA firma refresh registru.xlsx --json  rezultatul ca JSON",
  "cli.help.exitCodes":
    "Coduri de ieșire:\n  0  toate celulele FIRMA au fost actualizate\n  2  parțial: unele celule și-au păstrat valoarea anterioară sau nu pot fi calculate, ori o copie CSV nu s-a putut scrie\n  1  nimic făcut: argumente greșite, fișier ilizibil sau de nescris, nicio formulă FIRMA, niciun răspuns",

  // cli
  "cli.cause.budgetReached": "bugetul de credite s-a atins (--max-credits sau estimarea); rulați din nou: ce e deja în cache nu mai costă",
  "cli.cause.network": "serviciul nu poate fi contactat; verificați --base-url / FIRMA_BASE_URL și conexiunea",
  "cli.cause.server": "eroare a serviciului (5xx); încercați din nou mai târziu",
  "cli.cause.timeout": "serviciul nu a răspuns la timp; încercați din nou mai târziu",
  "cli.cause.shape": "răspuns de neînțeles de la serviciu; încercați din nou",
  "cli.cause.creditsExhausted":
    "creditele planului s-au epuizat; așteptați resetarea planului sau folosiți altă cheie (--key / FIRMA_API_KEY)",
  "cli.cause.firmBudget":
    "bugetul dvs. lunar pe serverul firmei s-a epuizat; cereți administratorului mai mult sau așteptați luna viitoare",
  "cli.cause.firmDayLimit": "serverul firmei a atins plafonul zilnic de credite; se reia mâine, după miezul nopții",
  "cli.cause.missingKey": "lipsește cheia API: dați --key sau FIRMA_API_KEY",
  "cli.cause.invalidKey": "cheia API a fost refuzată: verificați --key / FIRMA_API_KEY",
  "cli.cause.aborted": "oprit (Ctrl-C) înainte de răspuns",
  "cli.cause.notCached": "niciun răspuns pentru aceste celule; rulați din nou",

  // cli: what firma refresh says
  "cli.noKey":
    "Lipsește cheia API. Dați-o cu --key sau în variabila FIRMA_API_KEY; o cheie se generează din contul dvs. Company Data Service, după înregistrare. Pentru o încercare fără cont: npm run sandbox, apoi --key demo-pro --base-url http://127.0.0.1:3001",
  "cli.noUrl":
    "Lipsește adresa serviciului. Dați-o cu --base-url sau în variabila FIRMA_BASE_URL (adresa Company Data Service API v4, https://…). Pentru o încercare locală: npm run sandbox și --base-url http://127.0.0.1:3001",
  "cli.badUrl":
    "Adresa serviciului {url} nu este validă: folosiți https://… (http doar pe acest calculator: 127.0.0.1, localhost, [::1]), fără utilizator, parolă, „?” sau „#”. Nu s-a cheltuit nimic.",
  "cli.sameFile": "Fișierul de ieșire ar fi chiar cel de intrare: folosiți --in-place dacă asta doriți.",
  "cli.valuesInPlace": "--values-only scrie o copie fără formule: nu se poate folosi cu --in-place (formulele originalului s-ar pierde).",
  "cli.unwritable": "Nu se poate scrie rezultatul în {path} ({why}); nu s-a cheltuit nimic. Alegeți alt loc cu {option}.",
  "cli.unwritableSpent":
    "Nu se poate scrie {path} ({why}). Actualizarea a cheltuit {credits}; răspunsurile sunt în cache-ul de pe disc: rulați din nou cu alt loc pentru {option} și nu le mai plătiți.",
  "cli.unwritableSpentNoCache":
    "Nu se poate scrie {path} ({why}). Actualizarea a cheltuit {credits} și, fără cache (--no-cache), o nouă rulare le cheltuie din nou. Alegeți alt loc cu {option}.",
  "cli.unreadable": "Nu se poate citi {path}: {why}",
  "cli.noFormulas": "{path} nu conține nicio formulă FIRMA: nu e nimic de actualizat.",
  "cli.nothingAnswered": "Niciun răspuns de la serviciu: registrul nu a fost scris, valorile lui au rămas cum erau.",
  "cli.estimate": "Estimare: {formulas} de calculat, {cuis} CUI distincte, {cached} din cache, {invalid} invalide → {credits}.",
  "cli.estimateAtMost":
    "Estimare: {formulas} de calculat, {cuis} CUI distincte, {cached} din cache, {invalid} invalide → cel mult {credits}.",
  "cli.estimateRange":
    "Estimare: {formulas} de calculat, {cuis} CUI distincte, {cached} din cache, {invalid} invalide → cel mult {credits} ({low} dacă serviciul răspunde la toate câmpurile; prima cerere arată care e costul).",
  "cli.probed": "  prima cerere ({probe}) a arătat ce face serviciul: restul, estimat exact, {credits}.",
  "cli.probedAtMost":
    "  prima cerere ({probe}) nu a arătat tot ce face serviciul (un răspuns lipsă sau refuzat): restul, cel mult {credits}.",
  "cli.budget": "  bugetul --max-credits {max} e sub estimare: se trimit cel mult {calls}, restul celulelor își păstrează valorile.",
  "cli.dry": "Rulare de probă (--dry-run): nu s-a cheltuit nimic și nu s-a scris nimic.",
  "cli.done": "FIRMA: {input} → {out}",
  "cli.changesNone": "  nicio schimbare de stare, TVA, denumire sau adresă → {path}",
  "cli.changes": "  schimbări de stare, TVA, denumire sau adresă: {n} → {path}",
  "cli.found": "  formule FIRMA: {n} (necalculabile: {skipped})",
  "cli.refreshed": "  actualizate: {cells} cu valori, {errors} cu erori",
  "cli.kept": "  și-au păstrat valoarea anterioară: {cells}",
  "cli.skipped": "  necalculabile (formula nu poate fi evaluată fără Excel): {formulas}",
  "cli.verboseHint": "  (--verbose listează celulele)",
  "cli.arrays":
    "  rezultate matrice într-o singură celulă (formula nu e salvată ca matrice dinamică; s-a scris doar valoarea din stânga sus): {cells}",
  "cli.credits": "  credite cheltuite: {spent} (estimare {estimate}); răspunsuri din cache: {hits}; timp: {seconds} s",
  "cli.creditsUncertain":
    "  credite cheltuite: cel mult {spent} (estimare {estimate}): serviciul poate să nu fi taxat {uncertain} fără răspuns (conexiune întreruptă, timp depășit sau eroare a serviciului); răspunsuri din cache: {hits}; timp: {seconds} s",
  "cli.spill": "  rezultate care nu încap (#SPILL!):",
  "cli.outcome.ok": "Gata: toate celulele au fost actualizate.",
  "cli.outcome.partial": "Parțial: unele celule nu au fost actualizate (vezi mai sus).",
  "cli.outcome.nothing": "Nu s-a făcut nimic.",
  "cli.db.locked": "blocat de alt program: {detail}",
  "cli.db.notDatabase": "nu este o bază de date SQLite validă: {detail}",
  "cli.db.cannotWrite": "nu poate fi deschis pentru scriere: {detail}",
  "cli.cacheStore":
    "Cache-ul de pe disc nu poate fi folosit: {path} ({reason}). Nu s-a cheltuit nimic. Închideți celălalt program care îl folosește, ștergeți fișierul, alegeți alt dosar cu --cache-dir sau lucrați fără cache cu --no-cache.",
  "cli.cache.full":
    "Cache-ul de pe disc este plin: {evicted} au fost scoase din el (cele nefolosite de cel mai mult timp); vor costa credite când vor fi cerute din nou.",
  "cli.cache.writeFailed":
    "Cache-ul de pe disc nu a putut fi salvat: răspunsurile acestei rulări se vor cere din nou (cu credite) data viitoare.",
  "cli.cache.readTimeout": "Cache-ul de pe disc nu a răspuns la timp: unele răspunsuri păstrate se vor cere din nou (cu credite).",
  "cli.cache.readFailed": "Cache-ul de pe disc nu a putut fi citit: răspunsurile păstrate se vor cere din nou (cu credite).",
  "cli.fs.enoent": "dosarul sau fișierul nu există",
  "cli.fs.enotdir": "o parte a căii nu este un dosar",
  "cli.fs.eacces": "acces refuzat",
  "cli.fs.eperm": "operație nepermisă",
  "cli.fs.erofs": "discul este doar pentru citire",
  "cli.fs.enospc": "discul este plin",
  "cli.fs.eisdir": "este un dosar",

  // match: firma match (src/cli/match-*.ts)
  "cli.match.help.description": "găsește CUI-ul firmelor după nume, dintr-un .xlsx sau .csv, fără Excel",
  "cli.match.help.file": "registrul (.xlsx) sau fișierul CSV cu numele",
  "cli.match.help.column": "coloana cu numele: litera ei (B) sau textul din antet (Denumire)",
  "cli.match.help.noHeader": "primul rând are deja nume (nu e antet)",
  "cli.match.help.sheet": "foaia cu numele (implicit: prima)",
  "cli.match.help.countyColumn": "coloana cu județul (cod BC, Bacău, Sector 3): o firmă din alt județ nu e „sigur”",
  "cli.match.help.into": "prima din cele trei coloane scrise (implicit: cea de după zona folosită)",
  "cli.match.help.force": "scrie și peste celulele cu valori din cele trei coloane (nu peste formule)",
  "cli.match.help.out": "registrul rezultat (implicit: <nume>.matched.xlsx alături; pentru un .csv, fișierul CSV rezultat)",
  "cli.match.help.csv":
    "scrie și un CSV: coloanele intrării, apoi cui, official_name, confidence (sure, likely, ambiguous, not_found, not_searched); un text care începe cu =, +, - sau @ primește un ' în față",
  "cli.match.help.maxCredits": "buget: niciun apel peste atâtea credite; numele rămase sunt „necăutate”",
  "cli.match.help.json": "tipărește rezultatele (cu candidații) ca JSON pe ieșirea standard",
  "cli.match.help.examples":
    "Exemple:\n  firma match clienti.xlsx --column B --key CHEIA        scrie clienti.matched.xlsx: CUI, denumirea oficială, potrivirea\n  firma match clienti.csv --column Denumire --dry-run    doar estimarea, fără cost\n  firma match clienti.xlsx --column B --county-column C --max-credits 100 --json\n\nÎn registru, CUI-ul se scrie doar când potrivirea e sigură (un singur nume identic, în județul dat). Pentru „probabil” și „ambiguu” nu se scrie niciun CUI și nicio denumire, doar potrivirea: candidații sunt în rezumat și în --json, de verificat.",
  "cli.match.help.exitCodes":
    "Coduri de ieșire:\n  0  fiecare nume bun a fost căutat (numele greșite, ca o celulă goală, sunt spuse rând cu rând)\n  2  o oprire (buget, credite epuizate, serviciul căzut, Ctrl-C): unele nume nu au fost căutate; ce s-a găsit e scris\n  1  nimic făcut: argumente greșite, fișier ilizibil sau de nescris, cheie refuzată, celule ocupate fără --force, niciun răspuns",
  "cli.match.header.cui": "CUI",
  "cli.match.header.name": "Denumire oficială",
  "cli.match.header.confidence": "Potrivire",
  "cli.match.confidence.sure": "sigur",
  "cli.match.confidence.likely": "probabil: de verificat ({n} candidat, vezi rezumatul sau --json)",
  "cli.match.confidence.ambiguous": "ambiguu: {n} candidați, de ales (vezi rezumatul sau --json)",
  "cli.match.confidence.ambiguousMore": "ambiguu: prea multe firme cu acest nume; adăugați județul",
  "cli.match.confidence.notFound": "negăsit",
  "cli.match.confidence.notSearched": "necăutat: {why}",
  "cli.match.problem.empty": "celulă goală",
  "cli.match.problem.notText": "nu e un nume (un număr sau o valoare fără text)",
  "cli.match.problem.tooShort": "nume prea scurt",
  "cli.match.problem.onlyLegalForm": "doar forma juridică, fără nume",
  "cli.match.problem.unknownCounty": "județ necunoscut „{county}”",
  "cli.match.stop.budget": "bugetul de credite s-a atins (--max-credits)",
  "cli.match.stop.quota": "creditele planului s-au epuizat",
  "cli.match.stop.guard": "oprit de pragul de credite",
  "cli.match.stop.plan": "planul nu permite căutarea",
  "cli.match.stop.key": "cheia API a fost refuzată",
  "cli.match.stop.service": "serviciul nu a răspuns",
  "cli.match.stop.aborted": "oprit (Ctrl-C)",
  "cli.match.input.notTable": "{path} nu este un registru .xlsx și nici un fișier .csv.",
  "cli.match.input.noSheet": "{path} nu are foaia „{sheet}”. Foile lui: {sheets}.",
  "cli.match.input.notWorksheet": "{path}: foaia „{sheet}” nu este o foaie de calcul (alegeți alta cu --sheet).",
  "cli.match.input.csv": "{path} nu poate fi citit ca CSV: ghilimelele nu se închid (rândul {detail}).",
  "cli.match.input.empty": "{path} nu are niciun nume de căutat (fișierul sau foaia sunt goale, ori are doar antetul).",
  "cli.match.input.emptyColumn": "Coloana {column} din {path} nu are niciun nume sub antet: alegeți coloana cu numele (--column).",
  "cli.match.input.noColumn": "Coloana „{column}” nu există în {path}: dați litera coloanei (B) sau textul exact din antet.{headers}",
  "cli.match.input.headers": " Antetul are: {list}.",
  "cli.match.input.needsColumn": "Spuneți coloana cu numele: --column B (litera) sau --column Denumire (textul din antet).",
  "cli.match.input.xlsxOnly": "{option} se folosește doar cu un registru .xlsx (rezultatul unui .csv e un alt fișier CSV).",
  "cli.match.input.sameFile": "Fișierul rezultat ar fi chiar cel de intrare: alegeți altul cu --out.",
  "cli.match.input.badInto": "--into „{into}” nu este o literă de coloană (de exemplu --into H).",
  "cli.match.targets":
    "Nu s-a cheltuit nimic: {n} celule din {range} (foaia „{sheet}”) nu sunt goale, prima {first}. Alegeți alte coloane cu --into sau suprascrieți valorile cu --force.",
  "cli.match.targetsFormula":
    "Nu s-a cheltuit nimic: {n} celule din {range} (foaia „{sheet}”) au formule, prima {first}; FIRMA nu scrie peste formule. Alegeți alte coloane cu --into.",
  "cli.match.targetsDry": "  Atenție: {n} celule din {range} nu sunt goale (prima {first}); rularea adevărată cere --force sau --into.",
  "cli.match.read": "Citit: {path}{where}, {rows} rânduri de nume din coloana {column}{county}.",
  "cli.match.readCsv": " (CSV {encoding}, separator „{delimiter}”)",
  "cli.match.readSheet": ", foaia „{sheet}”",
  "cli.match.readCounty": ", județul din coloana {column}",
  "cli.match.estimate":
    "Estimare: {distinct} nume distincte de căutat ({repeats} repetate, {invalid} greșite, {cached} din cache) → între {min} și {max} credite.",
  "cli.match.estimateExact":
    "Estimare: {distinct} nume distincte de căutat ({repeats} repetate, {invalid} greșite, {cached} din cache) → {max} credite.",
  "cli.match.budget": "  bugetul --max-credits {max} e sub estimare: numele de după el rămân necăutate.",
  "cli.match.dry": "Rulare de probă (--dry-run): nu s-a cheltuit nimic și nu s-a scris nimic.",
  "cli.match.counts": "  sigure: {sure}, probabile: {likely}, ambigue: {ambiguous}, negăsite: {notFound}, necăutate: {notSearched}",
  "cli.match.notSearchedWhy": "    {n} × {why}",
  "cli.match.review": "  De verificat (probabile și ambigue, cu candidații):",
  "cli.match.reviewRow": "    rândul {row} „{name}” → {confidence}: {candidates}",
  "cli.match.reviewRowNone": "    rândul {row} „{name}” → {confidence}",
  "cli.match.reviewMore": "    … și încă {n} rânduri (--json le are pe toate).",
  "cli.match.credits": "  credite cheltuite: {spent} (estimare {min}–{max}); timp: {seconds} s",
  "cli.match.creditsUncertain":
    "  credite cheltuite: cel mult {spent} (estimare {min}–{max}): serviciul poate să nu fi taxat {uncertain} fără răspuns (conexiune întreruptă, timp depășit sau eroare a serviciului); timp: {seconds} s",
  "cli.match.written": "FIRMA: {input} → {out}",
  "cli.match.writtenCsv": "  CSV: {path}",
  "cli.match.nothingAnswered": "Niciun nume nu a primit răspuns ({why}): nu s-a scris nimic.",
  "cli.match.outcome.ok": "Gata: fiecare nume a fost căutat.",
  "cli.match.outcome.partial": "Parțial: unele nume nu au fost căutate (vezi mai sus); rulați din nou: ce e deja în cache nu mai costă.",

  // xlsx: a workbook the CLI cannot read or write
  "xlsx.damaged": "Fișierul .xlsx este deteriorat și nu poate fi citit",
  "xlsx.encryptedOrXls":
    "Fișierul nu este un .xlsx obișnuit: este protejat cu parolă sau în formatul vechi .xls; deschideți-l în Excel și salvați-l ca .xlsx fără parolă",
  "xlsx.notZip": "Fișierul nu este un registru Excel .xlsx (nu este o arhivă ZIP)",
  "xlsx.zip64": "Registrul folosește formatul ZIP64 (fișier foarte mare), pe care instrumentul nu îl suportă",
  "xlsx.multiVolume": "Arhivele ZIP pe mai multe volume nu sunt suportate",
  "xlsx.noContentTypes": "Fișierul este o arhivă ZIP, dar nu un registru Excel .xlsx (lipsește [Content_Types].xml)",
  "xlsx.missingPart": "Registrul nu are partea {part}",
  "xlsx.encryptedPart": "O parte a registrului este criptată",
  "xlsx.compression": "Metoda de compresie {method} nu este suportată",
  "xlsx.utf16": "Partea este codificată UTF-16, care nu este suportată",
  "xlsx.tooLarge": "Registrul rezultat ar depăși 4 GiB (ZIP64 nu este suportat)",
  "xlsx.damagedPart": "Partea {part} a registrului este deteriorată",
  "xlsx.noMainPart": "Fișierul nu este un registru Excel (lipsește partea principală)",
  "xlsx.notWorkbook": "Fișierul nu este un registru Excel .xlsx (de exemplu un document Word sau un registru binar .xlsb)",
  "xlsx.noSheet": "Foaia „{name}” nu există",
  "xlsx.notWorksheet": "Foaia „{name}” nu este o foaie de calcul",

  // serve: firma serve (src/server)
  "serve.help.description":
    "Serverul add-in-ului FIRMA: servește add-in-ul construit și manifestul lui, și transmite apelurile API pe aceeași origine.",
  "serve.help.host": "adresa pe care ascultă",
  "serve.help.port": "portul pe care ascultă (0: oricare liber)",
  "serve.help.publicUrl": "adresa la care utilizatorii ajung la add-in (https://…/); manifestul o primește",
  "serve.help.upstream": "adresa serviciului de date spre care se transmit apelurile /v4 (sau FIRMA_UPSTREAM_URL)",
  "serve.help.sandbox": "pornește și serviciul sandbox în același proces și transmite apelurile spre el",
  "serve.help.tlsCert": "certificatul HTTPS (PEM); cu el serverul vorbește HTTP/2, și HTTP/1.1 cu clienții mai vechi",
  "serve.help.tlsKey": "cheia privată a certificatului (PEM)",
  "serve.help.http": "HTTP simplu, pentru un proxy invers care face HTTPS în față",
  "serve.help.accessLog":
    "o linie JSON la stdout pentru fiecare cerere (mereu în modul releu; în modul de custodie jurnalul de audit înregistrează deja fiecare cerere la API)",
  "serve.help.trustProxy": "are încredere în antetele X-Forwarded-* ale proxy-ului din față",
  "serve.help.upstreamConcurrency":
    "cele mai multe apeluri deodată la serviciul de date; mai puține cât timp răspunde 429, 503 sau încet (1–1000; implicit 128)",
  "serve.help.dist": "add-in-ul construit (npm run build)",
  "serve.help.lang": "limba mesajelor: ro sau en",
  "serve.badPort": "portul „{value}” nu este un număr între 0 și 65535.",
  "serve.noDist": "nu există un add-in construit în {dir}: rulați întâi FIRMA_ADDIN_URL=https://… npm run build (docs/deploy.md).",
  "serve.tlsPair": "--tls-cert și --tls-key merg împreună: dați-le pe amândouă.",
  "serve.httpAndTls": "--http nu merge cu --tls-cert/--tls-key: alegeți unul.",
  "serve.badTls": "fișierul {file} nu poate fi citit ({reason}).",
  "serve.noDevCert":
    "nu există certificatul de dezvoltare (~/.office-addin-dev-certs): rulați npx office-addin-dev-certs install, sau dați --tls-cert și --tls-key, sau --http în spatele unui proxy.",
  "serve.badPublicUrl": "adresa publică {url} nu este o adresă https (Office încarcă add-in-urile doar prin https).",
  "serve.sandboxAndUpstream": "--sandbox și --upstream se exclud: alegeți unul.",
  "serve.noUpstream":
    "atenție: niciun serviciu de date nu este configurat, așa că apelurile /v4 primesc 502 până porniți cu --upstream https://… (sau FIRMA_UPSTREAM_URL), ori cu --sandbox pentru o probă locală.",
  "serve.badUpstream": "adresa serviciului {url} nu este acceptată: https, sau http doar pe acest calculator.",
  "serve.upstreamUnreachable": "serviciul {url} nu poate fi contactat ({reason}); verificați adresa și rețeaua.",
  "serve.httpWarning":
    "ATENȚIE: HTTP simplu pe {host}, care nu este adresa acestui calculator: cheile API trec necriptate. Folosiți --http doar în spatele unui proxy HTTPS.",
  "serve.noSandbox": "sandbox-ul nu este disponibil în această instalare.",
  "serve.portInUse": "portul {port} de pe {host} este deja folosit; alegeți altul cu --port.",
  "serve.portDenied": "portul {port} de pe {host} nu poate fi folosit fără drepturi de administrator; alegeți unul peste 1024.",
  "serve.listenFailed": "serverul nu a putut porni ({reason}).",
  "serve.listening": "FIRMA servește add-in-ul la {url}. Manifestul: {manifest}. Apelurile /v4 merg la {upstream}.",
  "serve.theSandbox": "sandbox ({url})",

  // serve: the custody mode (src/server/firm/custody.ts); custody.*: what a person's add-in or CLI is answered
  "serve.help.keyFile":
    "mod de custodie: fișierul cu cheia API a firmei, care rămâne pe server (sau FIRMA_UPSTREAM_KEY); oamenii folosesc tokenuri personale",
  "serve.help.database": "baza de date a firmei în modul de custodie: calea unui fișier SQLite, sau postgres://… (sau DATABASE_URL)",
  "serve.help.maxCreditsPerDay": "cel mult atâtea credite pe zi la serviciu, pentru toată firma (modul de custodie)",
  "serve.keyFileUnreadable": "fișierul cu cheia firmei {file} nu poate fi citit ({reason}).",
  "serve.keyEmpty": "{source} nu conține nicio cheie API.",
  "serve.keyBad": "{source} nu conține o cheie API pe un singur rând, din caractere vizibile.",
  "serve.help.watchSchedule":
    "când sunt verificate listele urmărite fără program propriu: o expresie cron cu 5 câmpuri, ora României (modul de custodie; implicit „0 6 * * *”)",
  "serve.help.watchBudget":
    "credite pe lună pentru listele urmărite ale firmei (modul de custodie); lista unei persoane se plătește din bugetul ei",
  "serve.help.rateLimit":
    "cel mult atâtea cereri pe secundă de la o persoană, numărate pe 10 s (modul de custodie; 0: fără limită; implicit 150)",
  "serve.badRateLimit": "--rate-limit „{value}” nu este un număr întreg ≥ 0.",
  "serve.help.dbPool": "câte conexiuni la PostgreSQL deschide acest server cel mult (modul de custodie; 1–100; implicit 10)",
  "serve.badDbPool": "--db-pool „{value}” nu este un număr întreg de la 1 la 100.",
  "serve.badUpstreamConcurrency": "--upstream-concurrency „{value}” nu este un număr întreg între 1 și 1000.",
  "serve.badMaxCredits": "--max-credits-per-day „{value}” nu este un număr întreg ≥ 0.",
  "serve.custodyNeedsUpstream": "modul de custodie (--key-file) are nevoie de serviciu: dați --upstream https://… sau --sandbox.",
  "serve.custodyOnly":
    "--database, --max-credits-per-day, --rate-limit, --watch-schedule și --watch-budget merg doar cu modul de custodie: dați și --key-file (sau FIRMA_UPSTREAM_KEY).",
  "serve.db.unknownScheme": "baza de date „{database}” nu este înțeleasă: dați calea unui fișier SQLite sau o adresă postgres://…",
  "serve.db.unreachable": "baza de date {database} nu poate fi deschisă ({reason}).",
  "serve.db.readOnly": "baza de date {database} este doar pentru citire: serverul firmei trebuie să scrie în ea.",
  "serve.db.newerSchema": "baza de date {database} a fost scrisă de o versiune mai nouă a FIRMA; actualizați FIRMA.",
  "serve.db.waitingForOlder":
    "baza de date {database} este folosită de instanțe ale unei versiuni mai vechi a FIRMA: schema ei este actualizată după ce se opresc toate; se așteaptă.",
  "serve.db.diskFull": "discul bazei de date {database} este plin: serverul firmei trebuie să scrie în ea; eliberați spațiu.",
  "serve.custodyOn":
    "Mod de custodie: cheia firmei rămâne pe acest server; oamenii folosesc tokenuri personale (firma users add). Baza de date: {database}.",
  "custody.tokenMissing": "Lipsește tokenul personal (antetul X-API-Key): cereți-l administratorului serverului firmei.",
  "custody.tokenFormat":
    "Valoarea trimisă nu este un token personal al firmei (firma_…): pe serverul firmei se folosește tokenul primit de la administrator, nu o cheie a serviciului.",
  "custody.tokenRefused": "Tokenul personal nu este cunoscut sau a fost revocat: cereți administratorului unul nou.",
  "custody.budgetExhausted":
    "Bugetul dumneavoastră de {budget} credite pe lună este cheltuit ({spent} în {month}): cereți administratorului un buget mai mare sau așteptați luna următoare.",
  "custody.dayLimit": "Firma a atins plafonul de {limit} credite pe zi al serverului: se reia mâine, după miezul nopții.",
  "custody.planStopped": "Creditele planului firmei s-au epuizat: serverul nu mai întreabă serviciul până la {until}.",
  "custody.firmKeyRefused": "Serviciul a refuzat cheia firmei: administratorul serverului trebuie să o verifice sau să o înlocuiască.",
  "custody.planHistory": "Anul cerut depășește istoricul financiar al planului firmei.",
  "custody.upstreamTimeout": "Serviciul nu a răspuns în {ms} ms.",
  "custody.upstreamUnreachable": "Serviciul nu poate fi contactat de serverul firmei.",
  "custody.upstreamBroken": "Răspunsul serviciului s-a întrerupt înainte de sfârșit; încercați din nou.",
  "custody.upstreamTooLarge": "Răspunsul serviciului depășește {mb} MB, mai mult decât acceptă serverul firmei.",
  "custody.upstreamFailed": "Serviciul a răspuns cu o eroare ({status}); încercați din nou.",
  "custody.upstreamShape": "Răspunsul serviciului nu a putut fi citit; încercați din nou.",
  "custody.upstreamNotConfigured": "Serverul firmei nu are un serviciu de date configurat (--upstream).",
  "custody.storeUnavailable": "Baza de date a serverului firmei nu răspunde; încercați din nou peste puțin timp.",
  "custody.storeReadOnly":
    "Serverul firmei nu poate scrie în baza sa de date (doar citire); răspunsurile pe care le are sunt date în continuare. Anunțați administratorul firmei.",
  "custody.storeFull":
    "Discul bazei de date a serverului firmei este plin; răspunsurile pe care le are sunt date în continuare. Anunțați administratorul firmei.",
  "custody.storeUpgraded":
    "Baza de date a firmei a fost actualizată de o versiune mai nouă a FIRMA; acest server nu mai scrie în ea până nu este actualizat. Încercați din nou peste puțin timp.",
  "custody.serviceRefused": "Serviciul a refuzat cererea ({status}).",
  "custody.internal": "Serverul firmei nu a putut răspunde; încercați din nou.",
  "custody.notApiPath": "Nu este o cale a API-ului v4.",
  "custody.methodNotAllowed": "Doar GET.",
  "custody.rateLimited":
    "Prea multe cereri cu tokenul dumneavoastră: serverul firmei primește cel mult {max} de la o persoană la fiecare {seconds} s (opțiunea sa --rate-limit). Încercați din nou peste {after} s; nu s-a consumat niciun credit.",
  "custody.bodyTooLarge": "O cerere către serverul firmei nu poate avea un conținut de peste {max} octeți.",
  "custody.queryTooLong": "Cererea depășește {max} octeți.",
  "custody.invalidCui": "CUI invalid: „{value}”.",
  "custody.noCui": "Parametrul cui lipsește.",
  "custody.batchTooLarge": "Cel mult {max} CUI-uri pe cerere (primite {count}).",
  "custody.badYear": "Parametrul {name} trebuie să fie un an între 1900 și 2100.",
  "custody.yearsBoth": "Dați fie an, fie an_de_la și an_pana, nu pe amândouă.",
  "custody.rangeHalf": "Intervalul cere an_de_la și an_pana.",
  "custody.rangeOrder": "an_de_la este după an_pana.",
  "custody.badInclude": "Parametrul include: nume de câmpuri despărțite prin virgulă.",
  "custody.notFound": "Nu există o firmă cu CUI {cui}, sau nu are datele cerute.",
  "custody.listNotFound": "Nu există.",
  "custody.healthFailed": "Baza de date nu răspunde.",

  // users: firma users add|list|revoke (src/server/firm/users-command.ts); users.help.* and users.db.* serve firma audit too
  "users.help.description": "oamenii firmei și tokenurile lor personale, în baza de date a serverului firmei (firma serve)",
  "users.help.add": "adaugă o persoană cu un buget lunar și îi arată tokenul personal, o singură dată",
  "users.help.list": "arată fiecare persoană: bugetul lunar, cât a cheltuit luna aceasta, când a fost văzută ultima dată, dacă e revocată",
  "users.help.revoke": "revocă tokenul unei persoane: nu mai funcționează, de îndată, pe niciun server al firmei",
  "users.help.name": "numele persoanei: litere, cifre, puncte, cratime sau liniuțe jos, cel mult 64",
  "users.help.budget": "creditele pe lună pe care persoana le poate cheltui la serviciu (un număr întreg ≥ 0)",
  "users.help.database": "baza de date a firmei: calea unui fișier SQLite, sau postgres://… (sau DATABASE_URL)",
  "users.help.json": "rezultatul ca JSON, pe ieșirea standard",
  "users.help.lang": "limba mesajelor: ro sau en",
  "users.help.exitCodes":
    "Coduri de ieșire: 0 reușit; 1 baza de date, persoana sau fișierul nu au permis; 2 ceva scris greșit (nu s-a scris nimic).",
  "users.db.unknownScheme": "baza de date „{database}” nu este înțeleasă: dați calea unui fișier SQLite sau o adresă postgres://…",
  "users.db.unreachable": "baza de date {database} nu poate fi deschisă ({reason}); verificați adresa, serverul și drepturile.",
  "users.db.readOnly": "baza de date {database} este doar pentru citire: nu s-a scris nimic.",
  "users.db.diskFull": "discul bazei de date {database} este plin: nu s-a scris nimic; eliberați spațiu.",
  "users.db.newerSchema": "baza de date {database} a fost scrisă de o versiune mai nouă a FIRMA; actualizați FIRMA.",
  "users.noName": "lipsește numele persoanei (de exemplu: firma users add ana --budget 500).",
  "users.badName": "numele „{name}” nu este acceptat: 1–64 de litere, cifre, puncte, cratime sau liniuțe jos, fără spații.",
  "users.exists": "există deja o persoană cu numele {name} (poate revocată): alegeți alt nume. Nu s-a scris nimic.",
  "users.noBudget": "lipsește bugetul lunar: dați --budget N (creditele pe lună, un număr întreg ≥ 0).",
  "users.badBudget": "bugetul „{value}” nu este un număr întreg ≥ 0 de credite pe lună (de exemplu --budget 500).",
  "users.added": "{name} a fost adăugat(ă), cu un buget de {budget} pe lună.",
  "users.tokenOnce":
    "Tokenul personal este arătat doar acum, o singură dată: FIRMA păstrează doar amprenta lui și nu îl poate arăta din nou. Dați-l persoanei; în panou, se pune unde se pune cheia API.",
  "users.none": "Nicio persoană încă: adăugați una cu firma users add NUME --budget N.",
  "users.never": "niciodată",
  "users.header": "Nume|Buget lunar|Cheltuit în {month}|Văzut ultima dată|Revocat",
  "users.total": "Persoane: {people}; cheltuit împreună în {month}: {spent}.",
  "users.unknown": "nu există o persoană cu numele {name}.",
  "users.alreadyRevoked": "tokenul lui/ei {name} era deja revocat.",
  "users.revoked": "Tokenul lui/ei {name} a fost revocat: următorul apel cu el primește 403.",

  // audit: firma audit (src/server/firm/audit-command.ts)
  "audit.help.description": "jurnalul cererilor către serverul firmei: când, cine, ce, companiile, de unde a venit răspunsul, creditele",
  "audit.help.since": "de la ce zi (AAAA-LL-ZZ, de la miezul nopții la București); implicit, de la începutul lunii",
  "audit.help.user": "doar cererile unei persoane",
  "audit.help.csv":
    "scrie jurnalul și într-un fișier CSV (antetul în română și engleză; un text care începe cu =, +, - sau @ primește un ' în față)",
  "audit.badDate": "data „{value}” nu este o zi a calendarului în forma AAAA-LL-ZZ (de exemplu --since 2026-11-01).",
  "audit.unwritable": "fișierul {file} nu poate fi scris ({reason}); nu s-a scris nimic.",
  "audit.csvWritten": "Jurnalul ({requests}) a fost scris în {file}.",
  "audit.header": "Când|Cine|Endpoint|Companii|Sursa|Credite|Stare",
  "audit.more": "și încă {n}",
  "audit.source.store": "depozitul firmei",
  "audit.source.upstream": "serviciul",
  "audit.source.refused": "refuzat",
  "audit.none": "Nicio cerere de la {since}.",
  "audit.total": "Total de la {since}: {requests}, dintre care {fromStore} din depozitul firmei; {credits} cheltuite la serviciu.",
  "users.help.email": "adresa de e-mail a persoanei, unde merg alertele listelor ei",
  "users.help.set": "schimbă adresa de e-mail a unei persoane (--email, gol: o șterge)",
  "users.badEmail": "adresa de e-mail „{value}” nu este acceptată: scrieți nume@domeniu.ro.",
  "users.noChange": "nimic de schimbat: dați --email ADRESA.",
  "users.emailSet": "Adresa lui/ei {name}: {email}.",
} as const;

export type NodeOnlyKey = keyof typeof nodeRo;
