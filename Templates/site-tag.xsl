<?xml version="1.0" encoding="UTF-8"?>
<!--
  Vitrine default theme: one page of a site's tag (tags/SLUG.html, tags/SLUG-page-2.html, ... at the output root).
  The model is a <site> (docs/model.md, "Site tags"); $page is the @id of a <page> of its <tag>, $root is '../'.
  The items on the page are under the <gallery> they are in, in the site's order: tag.xsl's page (the grid's
  tiles, each linking to its gallery's preview page) under the site's header.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">

  <xsl:import href="tag.xsl"/>

  <xsl:output method="html" encoding="UTF-8" indent="no" doctype-system="about:legacy-compat"/>

  <xsl:template name="site-header"><xsl:call-template name="home-header"/></xsl:template>

  <xsl:template name="site-footer"><xsl:call-template name="home-footer"/></xsl:template>

</xsl:stylesheet>
