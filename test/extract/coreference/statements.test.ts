import { afterAll, describe, expect, it } from 'vitest';
import { actorLabelled, actors, coreferencePipeline, referentOf, speakers } from './helpers.ts';

/**
 * Issue 25, third round: the references long statements and wire reports make after their first
 * paragraph (offices given in apposition, a statement's own "The Ministry", "the force" of a
 * mission, pronouns inside reported and relative clauses), each resolved to the one actor that
 * fits and to nobody when two do.
 */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('offices given in apposition', () => {
  it('an office in apposition before a known name is that person\'s, capitalised or not', async () => {
    const text =
      'NEW YORK, 15 May — The United Nations Special Envoy for Yemen, Hans Grundberg, briefed the council on Thursday. ' +
      'The Special Envoy called for the release of detained aid workers. Later the envoy said talks must resume.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'Special Envoy', 'The Special Envoy called')).toBe('Hans Grundberg');
    expect(speakers(graph)).toMatchObject({ 'The Special Envoy called for the release of detained aid workers': 'Hans Grundberg', 'talks must resume': 'Hans Grundberg' });
    expect(actors(graph).map((node) => node.properties.label)).not.toContain('Special Envoy');
  });

  it('a person named with a rank keeps the office an apposition after the name gives him', async () => {
    const text =
      'Brigadier General Oren Vask, the army spokesman, told reporters in Tessa that the convoy had reached the town. ' +
      'The spokesman denied that civilians had been hurt. The general said the road would stay open.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'spokesman', 'The spokesman denied')).toBe('Oren Vask');
    expect(speakers(graph)).toMatchObject({ 'The spokesman denied that civilians had been hurt': 'Oren Vask' });
  });

  it('a person no list knows is found by an office in apposition after an opening phrase, and speaks through "he"', async () => {
    const text =
      'The Houthis said on Tuesday that they had fired missiles at a ship in the Red Sea. ' +
      'In a televised address, the group\'s military spokesman, Yahya Saree, said the attacks would go on. ' +
      'He warned that any convoy on the northern road would be a target.';
    const graph = await pipeline.graphOf(text);
    expect(actorLabelled(graph, 'Yahya Saree').properties.actor_type).toBe('individual');
    expect(speakers(graph)).toMatchObject({ 'He warned that any convoy on the northern road would be a target': 'Yahya Saree' });
  });

  it('"the speaker" is the person "its speaker, X," introduced', async () => {
    const text =
      'Members of the Kivaran National Assembly voted to extend the state of emergency by thirty days. ' +
      'Its speaker, Tomas Hrell, said the debate had been bitter. The speaker urged the ministry to open an inquiry.';
    const graph = await pipeline.graphOf(text);
    expect(speakers(graph)).toMatchObject({ 'The speaker urged the ministry to open an inquiry': 'Tomas Hrell' });
  });

  it('a counterpart holds the office of the person before him, so "the minister" after both is nobody', async () => {
    const text =
      'Foreign Minister Ana Velt and her Dravenian counterpart, Ivo Marsh, met in Tessa on Thursday. ' +
      'Velt and Marsh both spoke of progress on water. The minister called for a joint committee on the border.';
    const graph = await pipeline.graphOf(text);
    expect(actorLabelled(graph, 'Ivo Marsh').properties.actor_type).toBe('individual');
    expect(referentOf(graph, text, 'minister', 'The minister called')).toBeUndefined();
    expect(speakers(graph)).toMatchObject({ 'The minister called for a joint committee on the border': null });
  });

  it('a lower-case role before a verb in the present tense is the person holding it ("The minister holds ...")', async () => {
    const text =
      'Interior Minister Ilse Maranov told parliament that the militia had received rifles from abroad. ' +
      'The minister holds Dreva responsible for every attack, she said.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'minister', 'The minister holds')).toBe('Ilse Maranov');
  });
});

describe('nominal mentions in statements', () => {
  it('a statement\'s capitalised "The Ministry" is the ministry it named, and a name is not taken for one', async () => {
    const text =
      'The Ministry of Foreign Affairs and Expatriates is following closely the developments in Syria. ' +
      'The Ministry calls on all parties to protect civilians and public institutions. ' +
      'The Ministry of Defence was not consulted.';
    const graph = await pipeline.graphOf(text);
    expect(speakers(graph)).toMatchObject({ 'The Ministry calls on all parties to protect civilians and public institutions': 'Ministry of Foreign Affairs and Expatriates' });
    expect(referentOf(graph, text, 'The Ministry', 'The Ministry calls')).toBe('Ministry of Foreign Affairs and Expatriates');
    expect(referentOf(graph, text, 'Ministry of Defence')).not.toBe('Ministry of Foreign Affairs and Expatriates');
  });

  it('a capitalised "The Ministry" with no ministry named before stands for nobody', async () => {
    const text = 'The Kesh Front attacked a checkpoint near Tessa on Monday. The Ministry calls on residents to stay indoors.';
    const graph = await pipeline.graphOf(text);
    expect(speakers(graph)).toMatchObject({ 'The Ministry calls on residents to stay indoors': null });
  });

  it('a nationality between the article and the head ("the Yemeni group") is a nominal mention', async () => {
    const text =
      'The Houthis said they had fired missiles at a ship in the Red Sea. US Central Command said the missiles were intercepted. ' +
      'It accused the Yemeni group of endangering sailors.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'the Yemeni group')).toBe('Houthis');
  });

  it('"the force" is a mission or a state force named before, not only an armed group', async () => {
    const text =
      'Troops of the African Union mission in Somalia retook the town of Moqokori on Monday, the mission said. ' +
      'The mission said its troops had cleared bombs from the main road. The force will continue to support Somali troops, the statement said.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'The force')).toBe(referentOf(graph, text, 'The mission', 'The mission said its'));
    expect(referentOf(graph, text, 'The force')).toBeDefined();
  });

  it('an alias that only adds "group" to a name does not make that actor "the group"', async () => {
    const text =
      'Kesh Front fighters detained two Islamic State financiers in a raid overnight, the Kesh Front said on Tuesday. ' +
      'The group said the men had moved money to families in the camps.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'The group')).toBe('Kesh Front');
  });
});

describe('subjects a pronoun follows', () => {
  it('the source a sentence ends with speaks on in the next: ", the Kesh Front said. The group said"', async () => {
    const text =
      'The Kesh Front and the Vell Brigade raided a village near Tessa overnight, the Kesh Front said on Tuesday. ' +
      'The group said the raid had freed two hostages.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'The group')).toBe('Kesh Front');
  });

  it('without a source at the end, two groups acting together leave "the group" to nobody', async () => {
    const text =
      'The Kesh Front and the Vell Brigade raided a village near Tessa overnight. ' +
      'The group said the raid had freed two hostages.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'The group')).toBeUndefined();
  });

  it('a reporting verb opens the clause it reports, with or without "that"', async () => {
    const text = 'The Jordanian foreign ministry said Jordan had always respected the sovereignty of its neighbours.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'its')).toBe('Jordan');
  });

  it('the actors of a relative clause are no subjects for a pronoun after it', async () => {
    const text =
      'The Kesh Front said it had repelled an attack near Tessa. ' +
      'Turkey, which regards the group as terrorists, denied that its drones had struck the town.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'its', 'its drones')).toBe('Turkey');
  });

  it('"Members of X voted" makes X the subject "its" follows', async () => {
    const text =
      'Members of the Kivaran National Assembly voted to extend the state of emergency. Its speaker said the vote was close.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'Its')).toBe('Kivaran National Assembly');
  });

  it('a place before the verb of speech is no antecedent of the "it" the verb reports', async () => {
    const text = 'The Government of Yemen, based in Aden, denied that it had moved troops towards Marib.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'it', 'that it had')).toBe('Government of Yemen');
  });

  it('a place after the verb of speech still keeps "it" from the actor ("... said troops entered Bora and it ...")', async () => {
    const text = 'The Kesh Front said its fighters had entered Bora, and it was calm by evening.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'it', 'and it was')).toBeUndefined();
  });
});

describe('bodies named with a rank word', () => {
  it('"the General Staff" is an armed forces body that speaks through "it", not a person called Staff', async () => {
    const text =
      'Ukraine\'s General Staff said on Thursday that fighting continued on the edges of Pokrovsk. ' +
      'It insisted that the defence line west of the town remained intact.';
    const graph = await pipeline.graphOf(text);
    const labels = actors(graph).map((node) => node.properties.label);
    expect(labels).not.toContain('Staff');
    expect(referentOf(graph, text, 'It')).toMatch(/General Staff/);
    expect(speakers(graph)).toMatchObject({ 'It insisted that the defence line west of the town remained intact': expect.stringMatching(/General Staff/) });
  });
});
