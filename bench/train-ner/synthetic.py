"""Synthetic press-release sentences with PER/ORG/LOC labels.

The public training sets are social media and web text; the documents parley reads are
statements of ministries, militaries and international organisations. These templates put
names in that register: titles and ranks before persons (labelled O, as the project's
annotation guidelines do), ministries, task forces, numbered units, acronyms defined in
brackets, towns and air bases. Names come half from the project's gazetteer (exported by
export-names.ts) and half invented, so that the model learns the contexts and not a list.
"""

import random
import re

FIRST = """Ahmed Mohammed Ali Hassan Omar Khalid Yusuf Ibrahim Mustafa Tariq Faisal Samir Nabil Hamid Karim Walid Ayman Bashir
Abdullah Haider Qasim Jabbar Falah Raed Salim Adnan Fatima Aisha Layla Noor Rania Huda Amal Mariam Zainab James John Robert
Michael David William Richard Thomas Mark Paul Steven Kevin Brian Scott Gregory Patrick Charles Lloyd Antony Kenneth Joseph
Mary Patricia Jennifer Linda Elizabeth Susan Karen Nancy Lisa Margaret Sarah Emily Anne Catherine Helen Rachel Olena Oleksandr
Dmitry Sergei Andrei Ivan Mikhail Yuri Natalia Irina Tatiana Pierre Jean Francois Marie Claire Hans Klaus Angela Ursula Giorgio
Luca Carlos Jose Miguel Luis Ana Maria Abiy Tedros Getachew Debretsion Mulugeta Kofi Kwame Amina Ngozi Olusegun Uhuru William
Cyril Thabo Min Aung Hlaing Suu Kyi Recep Mevlut Hakan Ebrahim Hossein Ali Reza Masoud Benjamin Yoav Isaac Mahmoud Ismail Yahya
Antonio Stephane Volker Rosemary Martin Hans Josep Jens Mark Stoltenberg Rishi Keir David Emmanuel Olaf Justin Narendra Shehbaz
""".split()

LAST = """al-Sudani al-Kadhimi al-Maliki al-Abadi Barzani Talabani al-Sadr al-Amiri al-Muhandis al-Assad al-Sharaa al-Jolani Mazloum
Abdi Hussein Rashid Haddad Khoury Nasser Mansour Saleh Hadi al-Alimi al-Houthi Abdulmalik Dbeibah Haftar Menfi Kurdi Jaber
Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor Thomas Moore Martin Jackson Thompson White Harris Clark
Lewis Robinson Walker Young Allen King Wright Scott Green Baker Adams Nelson Carter Mitchell Roberts Turner Phillips Campbell
Parker Evans Edwards Collins Stewart Morris Murphy Cook Rogers Austin Blinken Kirby Milley McKenzie Kurilla Garrett Dayton
Grynkewich Votel Townsend Funk Shoigu Gerasimov Lavrov Peskov Zakharova Kuleba Reznikov Umerov Zaluzhnyi Syrskyi Yermak Macron
Scholz Guterres Griffiths Fletcher Lazzarini Pedersen Hennis-Plasschaert Perthes Lamamra Abdelaziz Ahmed Mesfin Gebremichael
Ruto Kenyatta Obasanjo Tinubu Ramaphosa Museveni Kagame Tshisekedi Erdogan Fidan Cavusoglu Raisi Araghchi Amir-Abdollahian
Gallant Katz Herzog Gantz Abbas Haniyeh Sinwar Mishal Nasrallah Qassem Mikati Aoun Sisi Shoukry Bin Farhan Al Nahyan Thani
""".split()

TITLES = ["General", "Gen.", "Lt. Gen.", "Lieutenant General", "Maj. Gen.", "Major General", "Brig. Gen.", "Col.", "Colonel",
          "Lt. Col.", "Maj.", "Capt.", "Admiral", "Adm.", "Vice Adm.", "Rear Adm.", "Sgt.", "President", "Prime Minister",
          "Foreign Minister", "Defence Minister", "Defense Secretary", "Secretary of State", "Secretary-General", "Ambassador",
          "Special Envoy", "Minister", "Dr.", "Mr.", "Ms.", "Mrs.", "Chairman", "Commander", "Spokesperson", "Spokesman",
          "Deputy Minister", "Governor", "Sheikh", "Gen"]

ROLE_WORDS = ["spokesman", "spokesperson", "commander", "minister", "envoy", "official", "secretary", "ambassador",
              "head", "chief of staff", "deputy", "director"]

MINISTRY_TOPICS = ["Defence", "Defense", "Foreign Affairs", "Interior", "Health", "Justice", "Finance", "Information",
                   "Peshmerga Affairs", "Migration and Displaced", "Humanitarian Affairs", "Foreign Affairs and Trade"]
SERVICES = ["Army", "Navy", "Air Force", "National Guard", "Coast Guard", "Security Forces", "Special Forces",
            "Counter-Terrorism Service", "Border Guard", "Federal Police", "Marines", "Republican Guard", "Armed Forces"]
UNIT_HEADS = ["Infantry Division", "Airborne Division", "Armored Brigade", "Marine Expeditionary Unit", "Brigade",
              "Battalion", "Special Forces Group", "Mechanized Division", "Carrier Strike Group", "Expeditionary Wing",
              "Air Wing", "Corps", "Regiment", "Fleet"]
ORG_ADJ = ["National", "Popular", "Democratic", "Islamic", "United", "Revolutionary", "Free", "Liberation", "Joint",
           "International", "Independent", "Federal", "Patriotic", "Unified", "Supreme", "Central", "Arab", "African",
           "European", "Global", "Humanitarian", "Regional", "People's", "Sovereign", "Transitional", "Coalition"]
ORG_NOUN = ["Resistance", "Mobilization", "Salvation", "Defence", "Reconciliation", "Security", "Development", "Relief",
            "Unity", "Peace", "Justice", "Reform", "Action", "Solidarity", "Rescue", "Crisis", "Emergency", "Migration",
            "Refugee", "Monitoring", "Human Rights", "Health", "Food", "Intelligence"]
ORG_HEAD = ["Forces", "Front", "Movement", "Council", "Committee", "Authority", "Commission", "Agency", "Organisation",
            "Organization", "Alliance", "Coalition", "Party", "Army", "Brigades", "Office", "Mission", "Programme",
            "Foundation", "Network", "Union", "Group", "Command", "Directorate", "Institute", "Centre", "Association"]
COMMANDS = ["U.S. Central Command", "U.S. Africa Command", "U.S. European Command", "CENTCOM", "AFRICOM", "EUCOM",
            "Combined Joint Task Force", "Operation Inherent Resolve", "Combined Joint Task Force - Operation Inherent Resolve",
            "Department of Defense", "Department of State", "State Department", "Pentagon", "Ministry of Defence",
            "Foreign Office", "Foreign, Commonwealth and Development Office", "Security Council", "UN Security Council",
            "Office for the Coordination of Humanitarian Affairs", "OCHA", "World Food Programme", "WFP", "UNHCR",
            "UNICEF", "World Health Organization", "International Committee of the Red Cross", "ICRC", "NATO",
            "European Union", "African Union", "Arab League", "Global Coalition", "Coalition", "Defeat-ISIS Coalition",
            "Iraqi Security Forces", "Kurdistan Regional Government", "Peshmerga", "Syrian Democratic Forces", "SDF",
            "Popular Mobilization Forces", "PMF", "ISIS", "ISIL", "Daesh", "Islamic State", "al-Qaeda", "Hayat Tahrir al-Sham"]
PLACE_PREFIX = ["Al", "Al-", "Tal", "Deir", "Ras", "Kafr", "Bir", "Ain", "Jabal", "Wadi", "Khirbet", "Abu", "Umm", "Beit",
                "Sheikh", "Tell", "Qasr", "Nahr", "Jisr", "Hamam"]
SYLLABLES = ["ba", "ka", "ra", "shu", "mi", "da", "zor", "hal", "ram", "ta", "qa", "yah", "bir", "sam", "nar", "kur", "dil",
             "ha", "jar", "fal", "luj", "ris", "ana", "lah", "ba", "wan", "mos", "sul", "tik", "rit", "kir", "kuk", "sin", "jar",
             "ma", "nbij", "ko", "ba", "ni", "af", "rin", "hom", "idl", "ib", "dar", "aa", "bu", "kam", "mal", "dor", "nin", "ew"]
PLACE_HEADS = ["province", "Governorate", "governorate", "district", "region", "Air Base", "airfield", "camp", "valley",
               "border crossing", "desert", "area", "city", "village", "town"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
          "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

# {P} person, {O} organisation, {L} place, {T} title, {D} date, {N} number, {R} role word, {A} acronym definition.
TEMPLATES = """
{T} {P} said on {D} that {O} forces had secured {L} .
{O} forces conducted a partnered operation near {L} on {D} , killing {N} fighters .
{T} {P} , commander of {O} , met with {T} {P} in {L} to discuss the next steps .
" We will not allow {O} to return to {L} , " {T} {P} said .
The {O} condemned the attack on {L} and called on all parties to respect international law .
{O} said in a statement that {N} civilians were killed in {L} .
{T} {P} travelled to {L} on {D} for talks with {O} officials .
In {L} , {O} and {O} agreed to a ceasefire brokered by {L} .
{P} , the {R} of {O} , told reporters in {L} that talks would resume .
The {O} ({A}) announced new sanctions against {O} on {D} .
According to {O} , the strike in {L} targeted a senior {O} leader .
{O} aircraft struck {N} targets near {L} and {L} , the {O} said .
{T} {P} welcomed the release of {N} detainees held in {L} .
The {O} deployed to {L} in support of {O} .
{O} and {O} held a joint exercise off the coast of {L} .
{P} , {R} for {O} , said the convoy reached {L} on {D} .
Speaking in {L} , {T} {P} urged {O} to end the violence .
{O} spokesman {P} denied that its forces had entered {L} .
The meeting in {L} was attended by representatives of {O} , {O} and the {O} .
Humanitarian agencies including {O} said access to {L} remained restricted .
On {D} , {O} fighters attacked a checkpoint in {L} district , {O} reported .
{T} {P} of {O} and {T} {P} of {L} signed the agreement in {L} .
{O} officials in {L} confirmed that {N} soldiers had been wounded .
The {O} Summit in {L} ended without a joint statement .
Residents of {L} fled towards {L} after {O} shelling , {O} said .
{T} {P} thanked {O} for its continued support to the people of {L} .
{O} ({A}) units were redeployed from {L} to {L} .
The statement by {O} followed a call between {T} {P} and {T} {P} .
{O} personnel detained {N} suspected {O} members in {L} .
{T} {P} visited troops at {L} on {D} .
{P} said {O} would never hand back {L} .
The {R} of {O} , {P} , warned that {O} was preparing an offensive on {L} .
{O} reaffirmed its commitment to the sovereignty of {L} .
Forces of {O} seized the town of {L} , {N} kilometres north of {L} .
{L} and {L} restored diplomatic relations , the {O} announced .
{P} ( {O} ) was appointed {R} on {D} .
The {O} of {L} said it had intercepted a drone launched from {L} .
{T} {P} , {R} of the {O} , briefed the {O} on the situation in {L} .
{O} troops withdrew from {L} under the agreement mediated by {O} .
Asked about {O} , {T} {P} said : " We are ready for talks . "
""".strip().splitlines()


def _invented_person(rng):
    parts = [rng.choice(FIRST)]
    if rng.random() < 0.35:
        parts.append(rng.choice(FIRST + ["bin", "ibn", "Abu"]) if rng.random() < 0.5 else rng.choice("ABCDEFGHJKLMNPRSTW") + ".")
    parts.append(rng.choice(LAST))
    if rng.random() < 0.08:
        return [rng.choice(LAST)]
    return parts


def _invented_place(rng):
    word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
    if rng.random() < 0.4:
        prefix = rng.choice(PLACE_PREFIX)
        return [prefix + word] if prefix.endswith("-") else [prefix, word]
    return [word]


def _acronym(words, rng):
    letters = "".join(w[0] for w in words if w[:1].isupper())
    if len(letters) < 2:
        letters = "".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVW") for _ in range(rng.randint(2, 4)))
    return letters


def _invented_org(rng, names):
    r = rng.random()
    country = rng.choice(names["places"][:400] if names["places"] else ["Iraq"])
    demonym = rng.choice(names["demonyms"]) if names["demonyms"] else "Iraqi"
    if r < 0.15:
        return ("Ministry of " + rng.choice(MINISTRY_TOPICS)).split() if rng.random() < 0.5 else \
            (f"{demonym} Ministry of " + rng.choice(MINISTRY_TOPICS)).split()
    if r < 0.3:
        return f"{demonym} {rng.choice(SERVICES)}".split()
    if r < 0.42:
        n = rng.randint(1, 120)
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix} {rng.choice(UNIT_HEADS)}".split()
    if r < 0.55:
        return rng.choice(COMMANDS).split()
    if r < 0.62:
        return f"Joint Task Force {rng.choice(_invented_place(rng))}".split()
    words = [rng.choice(ORG_ADJ), rng.choice(ORG_NOUN), rng.choice(ORG_HEAD)]
    if rng.random() < 0.3:
        words += ["of", country]
    elif rng.random() < 0.2:
        words = [country] + words[1:]
    return " ".join(words).split()


def _split(phrase):
    return re.findall(r"[\w]+|[^\w\s]", phrase)


def generate(names, count, seed=13):
    rng = random.Random(seed)
    sentences = []
    for _ in range(count):
        template = rng.choice(TEMPLATES)
        tokens, tags = [], []

        def emit(words, typ):
            for i, w in enumerate(words):
                pieces = _split(w)
                for j, p in enumerate(pieces):
                    tokens.append(p)
                    tags.append("O" if typ is None else ("B-" if i == 0 and j == 0 else "I-") + typ)

        last_org = None
        for slot in template.split():
            if slot == "{P}":
                use_gazetteer = rng.random() < 0.3 and names["persons"]
                emit(rng.choice(names["persons"]).split() if use_gazetteer else _invented_person(rng), "PER")
            elif slot in ("{O}", "({O}"):
                use_gazetteer = rng.random() < 0.4 and names["organisations"]
                last_org = rng.choice(names["organisations"]).split() if use_gazetteer else _invented_org(rng, names)
                emit(last_org, "ORG")
            elif slot == "{L}":
                r = rng.random()
                words = rng.choice(names["places"]).split() if r < 0.6 and names["places"] else _invented_place(rng)
                if rng.random() < 0.15:
                    words = words + rng.choice(PLACE_HEADS).split()
                    if words[-1].islower():
                        emit(words[:-1], "LOC")
                        emit(words[-1:], None)
                        continue
                emit(words, "LOC")
            elif slot == "({A})":
                emit(["("], None)
                emit([_acronym(last_org or ["X"], rng)], "ORG")
                emit([")"], None)
            elif slot == "{T}":
                emit(rng.choice(TITLES).split() if rng.random() < 0.85 else [], None)
            elif slot == "{R}":
                emit(rng.choice(ROLE_WORDS).split(), None)
            elif slot == "{D}":
                emit(rng.choice([rng.choice(DAYS), f"{rng.randint(1, 28)} {rng.choice(MONTHS)}",
                                 f"{rng.choice(MONTHS)} {rng.randint(1, 28)} , {rng.randint(2014, 2025)}"]).split(), None)
            elif slot == "{N}":
                emit([str(rng.randint(2, 400))], None)
            else:
                emit([slot], None)
        if rng.random() < 0.1:
            # Headline case: every word capitalised, which must not make every word a name.
            tokens = [t[:1].upper() + t[1:] for t in tokens]
        sentences.append((tokens, tags))
    return sentences
