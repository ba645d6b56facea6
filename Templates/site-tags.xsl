<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: a site's tag index (tags/index.html at the output root, vitrine build).
  The model is a <site> (docs/model.md, "Site tags"); $page is the @id of its <tags> ('tags'), $root is '../'.
  Every tag of every gallery, as the model lists them (most items first, then by name), linked to its first page,
  with its count: tags.xsl's page under the site's header.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="tags.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template name="site-header"><xsl:call-template name="home-header"/></xsl:template>

  <xsl:template name="site-footer"><xsl:call-template name="home-footer"/></xsl:template>

</xsl:stylesheet>
