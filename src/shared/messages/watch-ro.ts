/**
 * What the firm's watch lists say, in Romanian: `firma watch add|set|list|show|remove|log|run`, a check's
 * lines and exit, and why a check stopped (src/server/firm/watch-*.ts). Kept apart from node-ro.ts, which
 * joins them, so that each catalog file stays one subject; English is in watch-en.ts, under the same keys.
 */
export const watchRo = {
  "watch.run.exitCodes":
    "Coduri de ieșire: 0 toate listele verificate; 3 o verificare incompletă (bugetul, limita zilnică a firmei, planul, serviciul) sau lista oprită; 1 baza de date, sau o listă ținută prea mult de alt server; 2 ceva scris greșit.",
  "watch.run.needsKey": "verificarea are nevoie de cheia firmei: dați --key-file F (sau FIRMA_UPSTREAM_KEY), ca pentru firma serve.",
  "watch.run.needsUpstream":
    "verificarea are nevoie de adresa serviciului de date: dați --upstream https://… (sau FIRMA_UPSTREAM_URL), ca pentru firma serve.",
  "watch.run.none": "Nicio listă de verificat: adăugați una cu firma watch add clienti --file clienti.csv --firm.",
  "watch.run.checked": "{list}: {companies} firme verificate ({reused} din răspunsurile aduse azi), {credits}, {changes} modificări.",
  "watch.run.incomplete":
    "{list}: INCOMPLETĂ — {reason}: {unknown} din {companies} firme nu au putut fi verificate (valorile lor au rămas; următoarea verificare le caută din nou); {credits}, {changes} modificări la celelalte.",
  "watch.run.financial": "an financiar",
  "watch.run.resumed": "(o verificare întreruptă mai devreme, terminată; ce plătise nu a mai fost cerut)",
  "watch.run.done": "{list}: deja verificată pentru acest moment.",
  "watch.run.busy": "{list}: alt server o verifică acum; nu a fost verificată aici.",
  "watch.run.stopped": "{list}: oprită ({reason}); nu a fost verificată.",
  "watch.run.unknown": "{list}: nu există o astfel de listă.",
  "watch.run.interrupted": "{list}: întreruptă (serverul se oprește); o termină următoarea verificare.",
  "watch.run.failed": "{list}: verificarea a eșuat ({reason}); nu s-a salvat nimic, următoarea rulare o termină.",
  "watch.reason.budgetExhausted": "bugetul lunar s-a epuizat",
  "watch.reason.dayLimit": "s-a atins limita zilnică de credite a firmei",
  "watch.reason.planStopped": "planul serviciului de date nu mai are credite deocamdată",
  "watch.reason.firmKeyRefused": "serviciul de date a refuzat cheia firmei",
  "watch.reason.storeUnavailable": "baza de date a firmei nu a răspuns",
  "watch.reason.upstreamFailed": "serviciul de date a eșuat pentru unele firme",
  "watch.reason.closing": "serverul se oprește",
  "watch.help.description":
    "listele de firme urmărite de serverul firmei: clienți, furnizori; verificate după un program, cu alerte la schimbări",
  "watch.help.add": "adaugă o listă din fișierul unui tabel (CSV), a unei persoane (--owner) sau a firmei (--firm)",
  "watch.help.set": "schimbă o listă: firmele (--file, înlocuite), proprietarul, programul, adresele",
  "watch.help.lists": "arată listele: proprietarul, câte firme, programul, costul pe lună",
  "watch.help.show": "arată o listă și firmele ei",
  "watch.help.remove": "șterge o listă, sau doar firmele date (CUI…) din ea",
  "watch.help.log": "jurnalul listelor: adăugări, schimbări, opriri, verificări",
  "watch.help.list": "numele listei: litere, cifre, puncte, cratime sau liniuțe jos, cel mult 64",
  "watch.help.file":
    "fișierul cu CUI-uri: un registru Excel .xlsx (prima foaie cu antetul coloanei, altfel prima foaie) sau un CSV (; , sau tab), cu sau fără antet",
  "watch.help.column": "coloana cu CUI-uri: litera (B) sau textul antetului; implicit cea cu antetul CUI/CIF, altfel prima",
  "watch.help.owner": "persoana căreia îi aparține lista: primește alertele, lista se plătește din bugetul ei",
  "watch.help.firm": "lista firmei: se plătește din bugetul listelor firmei (--watch-budget)",
  "watch.help.schedule": "când se verifică: o expresie cron de 5 câmpuri, ora României (implicit „0 6 * * *”, zilnic la 06:00)",
  "watch.help.financialSchedule":
    "când se caută un an financiar nou publicat: o expresie cron de 5 câmpuri, ora României (implicit „0 6 1 * *”, pe 1 ale lunii la 06:00)",
  "watch.help.financial": "verifică acum dacă firmele listei au publicat un an financiar nou (în loc de verificarea câmpurilor urmărite)",
  "watch.help.notify": "adrese de e-mail care primesc și ele alertele, separate prin virgulă",
  "watch.help.watchBudget": "creditele pe lună ale listelor firmei, ca la firma serve: o listă a firmei care le-ar depăși e refuzată",
  "watch.help.cuis": "CUI-urile de scos din listă",
  "watch.noName": "lipsește numele listei (de exemplu: firma watch add clienti --file clienti.csv --firm).",
  "watch.badName": "numele de listă „{name}” nu este acceptat: 1–64 de litere, cifre, puncte, cratime sau liniuțe jos, fără spații.",
  "watch.badSchedule":
    "programul „{value}” nu este o expresie cron ({reason}): dați 5 câmpuri, minut oră zi-a-lunii lună zi-a-săptămânii, ora României; de exemplu „0 6 * * *” (zilnic la 06:00) sau „30 7 * * 1-5” (în zilele lucrătoare la 07:30).",
  "watch.badEmail": "adresa de e-mail „{value}” nu este acceptată: scrieți nume@domeniu.ro, mai multe separate prin virgulă.",
  "watch.ownerAndFirm": "dați fie --owner NUME, fie --firm, nu amândouă.",
  "watch.noOwner": "lipsește proprietarul listei: dați --owner NUME (lista unei persoane) sau --firm (lista firmei).",
  "watch.noFile": "lipsește fișierul cu firmele: dați --file clienti.xlsx (sau un CSV).",
  "watch.badBudget": "bugetul „{value}” nu este un număr întreg de credite ≥ 0.",
  "watch.fileUnreadable": "fișierul {file} nu poate fi citit ({reason}); nu s-a scris nimic.",
  "watch.fileXlsx": "fișierul {file} nu poate fi citit ca registru Excel: {reason}; nu s-a scris nimic.",
  "watch.fileNoWorksheet": "registrul {file} nu are nicio foaie de calcul; nu s-a scris nimic.",
  "watch.fileBinary": "fișierul {file} nu este nici un registru Excel .xlsx, nici un tabel text (CSV); nu s-a scris nimic.",
  "watch.fileQuoting": "fișierul {file} are ghilimele neînchise (rândul {detail}); corectați-l; nu s-a scris nimic.",
  "watch.fileColumn": "fișierul {file} nu are coloana „{detail}”: dați litera coloanei (B) sau textul exact al antetului.",
  "watch.badRow": "rândul {row} („{text}”: {reason})",
  "watch.cui.empty": "gol",
  "watch.cui.format": "nu e un CUI: doar cifre, opțional cu RO",
  "watch.cui.length": "un CUI are între 2 și 10 cifre",
  "watch.cui.control": "cifra de control nu se potrivește",
  "watch.invalidRows":
    "fișierul {file} are {n} valori în coloana {column}{sheet} care nu sunt CUI-uri valide: {rows}. Corectați-le sau ștergeți rândurile; nu s-a scris nimic.",
  "watch.emptyFile": "fișierul {file} nu are niciun CUI în coloana {column}{sheet}; nu s-a scris nimic.",
  "watch.fileRead":
    "Din {file}, coloana {column}{sheet}: {cuis} CUI-uri; {blanks} celule goale sărite, {duplicates} duplicate luate o dată{header}.",
  "watch.withHeader": "; primul rând, antet",
  "watch.ofSheet": " a foii „{sheet}”",
  "watch.cost":
    "Cost: {perCheck} pe verificare (cât cer loturile de 100; mai mult dacă loturile nu poartă câmpurile urmărite: câte un profil pe firmă); pe lună {month} ({checks} zile cu verificare, plus {financial} pentru anul financiar: {financialChecks} × {perFinancialCheck}, loturi de 50). O a doua verificare în aceeași zi refolosește răspunsurile.",
  "watch.ownerRevoked": "{name} este revocat(ă): listele sale nu se mai verifică; alegeți alt proprietar. Nu s-a scris nimic.",
  "watch.overBudget":
    "lista {name} costă cel puțin {low} pe lună ({checks} verificări × {perCheck} + {financial} pentru anul financiar); cu celelalte liste ale lui/ei {owner} ({others}) ajunge la {total}, peste bugetul lunar de {budget}. Măriți bugetul (firma users), răriți programul sau împărțiți lista; nu s-a scris nimic.",
  "watch.overFirmBudget":
    "lista {name} costă cel puțin {low} pe lună ({checks} verificări × {perCheck} + {financial} pentru anul financiar); cu celelalte liste ale firmei ({others}) ajunge la {total}, peste bugetul listelor firmei de {budget} (--watch-budget). Nu s-a scris nimic.",
  "watch.exists": "există deja o listă cu numele {name}: schimbați-o cu firma watch set, sau alegeți alt nume. Nu s-a scris nimic.",
  "watch.unknown": "nu există o listă cu numele {name} (firma watch list le arată).",
  "watch.added": "Lista {name} ({owner}) urmărește {n} firme.",
  "watch.theFirm": "a firmei",
  "watch.schedule": "Verificare: {schedule}, ora României.",
  "watch.financialSchedule": "An financiar nou: {schedule}, ora României.",
  "watch.default": "(implicit)",
  "watch.notify": "Alertele merg și la: {to}.",
  "watch.stopped": "Oprită la {at}: {reason}.",
  "watch.nothingToSet": "nimic de schimbat: dați --file, --owner/--firm, --schedule, --financial-schedule sau --notify.",
  "watch.changed": "Lista {name} a fost schimbată.",
  "watch.none": "Nicio listă încă: adăugați una cu firma watch add clienti --file clienti.csv --firm.",
  "watch.header": "Lista|Proprietar|Firme|Program|Credite pe lună|Oprită",
  "watch.badCuis": "nu sunt CUI-uri valide: {value}; nu s-a scris nimic.",
  "watch.removed": "Lista {name} a fost ștearsă (jurnalul ei rămâne).",
  "watch.membersRemoved": "Din lista {name} au fost scoase {n} firme.",
  "watch.notMembers": "Nu erau în listă: {cuis}.",
  "watch.help.run": "verifică acum, în acest proces: o listă, sau toate listele active (și pentru un temporizator al sistemului)",
  "watch.ownerRevokedReason": "proprietarul ei, {owner}, a fost revocat",
  "watch.noLog": "Nimic în jurnal încă.",
  "watch.logHeader": "Când|Lista|Ce|Detalii",
};

export type WatchMessageKey = keyof typeof watchRo;
