-- Issue 20: on a Japanese server the buttons read 「結果報告」, not 「結果報告 / Report result」.
-- A server whose members read Japanese and English can ask for both (/setup server's
-- bilingual_buttons); mirrors domain.guild.GuildConfig.bilingual_buttons.

ALTER TABLE guild_config
    ADD COLUMN bilingual_buttons INTEGER NOT NULL DEFAULT 0 CHECK (bilingual_buttons IN (0, 1));
